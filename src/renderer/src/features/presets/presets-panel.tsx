import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { PRESET_NAME_MAX, presetNameProblem } from '@shared/presets/preset-name';
import { ErrorMessage } from '../../components/error-message';
import { validateDraft } from '../filters';
import { useFilter } from '../filters';
import { describeSetAside, usePresetsStore } from './presets-store';

// A name of up to 100 characters with no spaces cannot wrap, so it is cut with an ellipsis instead of
// pushing the button out of the 300px panel; the full name is in the button's tooltip.
const ellipsis: CSSProperties = {
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  minWidth: 0,
};

function PresetRow({
  id,
  name,
  index,
  count,
  active,
}: {
  id: string;
  name: string;
  index: number;
  count: number;
  active: boolean;
}) {
  const presetActions = usePresetsStore.getState();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(name);
  const tid = `preset-${index}`;
  const problem = presetNameProblem(text);
  return (
    <li
      data-testid={tid}
      data-preset-name={name}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 4,
        alignItems: 'center',
        fontWeight: active ? 'bold' : 'normal',
      }}
    >
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (problem) return;
            void presetActions.rename(id, text).then((ok) => ok && setEditing(false));
          }}
          style={{ maxWidth: '100%' }}
        >
          <input
            value={text}
            data-testid={`${tid}-rename-input`}
            maxLength={PRESET_NAME_MAX}
            aria-invalid={Boolean(problem)}
            onChange={(e) => setText(e.target.value)}
            autoFocus
          />
          <button
            type="submit"
            data-testid={`${tid}-rename-save`}
            disabled={Boolean(problem)}
            title={problem ?? 'Save the new name'}
          >
            OK
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
          {problem && (
            <small data-testid={`${tid}-rename-error`} style={{ display: 'block' }}>
              {problem}
            </small>
          )}
        </form>
      ) : (
        <button
          type="button"
          data-testid={`${tid}-load`}
          title={`${name}: load into the filter form`}
          onClick={() => presetActions.useInForm(id)}
          style={{ ...ellipsis, textAlign: 'left', maxWidth: '100%' }}
        >
          {name}
        </button>
      )}
      <button
        type="button"
        data-testid={`${tid}-up`}
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => void presetActions.move(id, 'up')}
      >
        ↑
      </button>
      <button
        type="button"
        data-testid={`${tid}-down`}
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => void presetActions.move(id, 'down')}
      >
        ↓
      </button>
      <button
        type="button"
        data-testid={`${tid}-rename`}
        onClick={() => {
          setText(name);
          setEditing(true);
        }}
      >
        Rename
      </button>
      <button type="button" data-testid={`${tid}-duplicate`} onClick={() => void presetActions.duplicate(id)}>
        Duplicate
      </button>
      <button
        type="button"
        data-testid={`${tid}-delete`}
        onClick={() => window.confirm(`Delete the preset "${name}"?`) && void presetActions.remove(id)}
      >
        Delete
      </button>
    </li>
  );
}

/** Saved filters: save the form's filter, load, rename, duplicate, delete, reorder, import and export. */
export function PresetsPanel() {
  const presets = usePresetsStore((s) => s.presets);
  const loaded = usePresetsStore((s) => s.loaded);
  const error = usePresetsStore((s) => s.error);
  const lastImport = usePresetsStore((s) => s.lastImport);
  const activeId = usePresetsStore((s) => s.activeId);
  const setAside = usePresetsStore((s) => s.setAside);
  const presetActions = usePresetsStore.getState();
  const draft = useFilter((s) => s.draft);
  const [name, setName] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!loaded) void usePresetsStore.getState().load();
  }, [loaded]);
  const check = validateDraft(draft, 'filter');
  const reason = presetNameProblem(name) ?? (check.valid ? null : check.reason);
  const active = presets.find((p) => p.id === activeId);
  return (
    <aside className="presets-panel" data-testid="presets-panel">
      <h2 style={{ fontSize: 16 }}>Presets</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (reason) return;
          void presetActions.saveCurrent(name.trim()).then((ok) => ok && setName(''));
        }}
        style={{ display: 'flex', gap: 4 }}
      >
        <input
          value={name}
          placeholder="Preset name"
          data-testid="preset-name-input"
          maxLength={PRESET_NAME_MAX}
          onChange={(e) => setName(e.target.value)}
        />
        <button
          type="submit"
          data-testid="preset-save"
          disabled={Boolean(reason)}
          title={reason ?? 'Save the current filter'}
        >
          Save
        </button>
      </form>
      {reason && name.trim() && <small data-testid="preset-save-reason">{reason}</small>}
      {active && (
        <button
          type="button"
          data-testid="preset-update"
          disabled={!check.valid}
          title={`Update “${active.name}” with the current filter`}
          onClick={() => void presetActions.overwrite(active.id, active.name)}
          style={{ display: 'flex', maxWidth: '100%', whiteSpace: 'nowrap' }}
        >
          <span style={{ flex: 'none' }}>Update “</span>
          <span data-testid="preset-update-name" style={ellipsis}>
            {active.name}
          </span>
          <span style={{ flex: 'none' }}>” with the current filter</span>
        </button>
      )}
      {error && <ErrorMessage error={error} testId="presets-error" />}
      {setAside && (
        <div role="alert" data-testid="presets-set-aside" style={{ overflowWrap: 'anywhere' }}>
          {describeSetAside(setAside)}{' '}
          <button
            type="button"
            data-testid="presets-set-aside-dismiss"
            onClick={presetActions.dismissSetAside}
          >
            Dismiss
          </button>
        </div>
      )}
      <ol data-testid="presets-list" style={{ paddingLeft: 0, listStyle: 'none' }}>
        {presets.map((p, i) => (
          <PresetRow
            key={p.id}
            id={p.id}
            name={p.name}
            index={i}
            count={presets.length}
            active={p.id === activeId}
          />
        ))}
      </ol>
      {loaded && presets.length === 0 && <p data-testid="presets-empty">No presets yet.</p>}
      <div style={{ display: 'flex', gap: 4 }}>
        <button type="button" data-testid="presets-import" onClick={() => fileRef.current?.click()}>
          Import…
        </button>
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="presets-import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void file.text().then((t) => presetActions.importText(t));
          }}
        />
        <button
          type="button"
          data-testid="presets-export"
          disabled={presets.length === 0}
          onClick={() => void presetActions.exportToDownload()}
        >
          Export…
        </button>
      </div>
      {lastImport && (
        <div role="status" data-testid="presets-import-report">
          Imported {lastImport.imported} preset{lastImport.imported === 1 ? '' : 's'}.{' '}
          <button
            type="button"
            data-testid="presets-import-report-dismiss"
            onClick={presetActions.dismissImportReport}
          >
            Dismiss
          </button>
          {lastImport.skipped.length > 0 && (
            // A file with hundreds of bad entries must not push the rest of the page out of view.
            <ul
              data-testid="presets-import-skipped"
              style={{ maxHeight: '12em', overflowY: 'auto', overflowWrap: 'anywhere' }}
            >
              {lastImport.skipped.map((s, i) => (
                // Skipped names can repeat (two entries called the same), so the position is the key.
                <li key={i}>
                  Skipped “{s.name}”: {s.reason}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </aside>
  );
}
