import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { validateDraft } from '../filters/filter-model';
import { useFilter } from '../filters/filter-store';
import { presetActions, usePresetsStore } from './presets-store';

function PresetRow({ id, name, index, count, active }: { id: string; name: string; index: number; count: number; active: boolean }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(name);
  const tid = `preset-${index}`;
  return (
    <li data-testid={tid} data-preset-name={name} style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center', fontWeight: active ? 'bold' : 'normal' }}>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void presetActions.rename(id, text).then((ok) => ok && setEditing(false));
          }}
        >
          <input value={text} data-testid={`${tid}-rename-input`} onChange={(e) => setText(e.target.value)} autoFocus />
          <button type="submit" data-testid={`${tid}-rename-save`} disabled={!text.trim()}>
            OK
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" data-testid={`${tid}-load`} title="Load into the filter form" onClick={() => presetActions.useInForm(id)} style={{ textAlign: 'left' }}>
          {name}
        </button>
      )}
      <button type="button" data-testid={`${tid}-up`} aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => void presetActions.move(id, 'up')}>
        ↑
      </button>
      <button type="button" data-testid={`${tid}-down`} aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => void presetActions.move(id, 'down')}>
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
      <button type="button" data-testid={`${tid}-delete`} onClick={() => window.confirm(`Delete the preset "${name}"?`) && void presetActions.remove(id)}>
        Delete
      </button>
    </li>
  );
}

/** Saved filters: save the form's filter, load, rename, duplicate, delete, reorder, import and export. */
export function PresetsPanel() {
  const { presets, loaded, error, lastImport, activeId } = usePresetsStore();
  const draft = useFilter((s) => s.draft);
  const [name, setName] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!loaded) void presetActions.load();
  }, [loaded]);
  const check = validateDraft(draft, 'filter');
  const reason = !name.trim() ? 'Name the preset first' : check.valid ? null : check.reason;
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
        <input value={name} placeholder="Preset name" data-testid="preset-name-input" onChange={(e) => setName(e.target.value)} />
        <button type="submit" data-testid="preset-save" disabled={Boolean(reason)} title={reason ?? 'Save the current filter'}>
          Save
        </button>
      </form>
      {reason && name.trim() && <small data-testid="preset-save-reason">{reason}</small>}
      {active && (
        <button type="button" data-testid="preset-update" disabled={!check.valid} onClick={() => void presetActions.overwrite(active.id, active.name)}>
          Update “{active.name}” with the current filter
        </button>
      )}
      {error && <ErrorMessage error={error} testId="presets-error" />}
      <ol data-testid="presets-list" style={{ paddingLeft: 0, listStyle: 'none' }}>
        {presets.map((p, i) => (
          <PresetRow key={p.id} id={p.id} name={p.name} index={i} count={presets.length} active={p.id === activeId} />
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
        <button type="button" data-testid="presets-export" disabled={presets.length === 0} onClick={() => void presetActions.exportToDownload()}>
          Export…
        </button>
      </div>
      {lastImport && (
        <div role="status" data-testid="presets-import-report">
          Imported {lastImport.imported} preset{lastImport.imported === 1 ? '' : 's'}.
          {lastImport.skipped.length > 0 && (
            <ul>
              {lastImport.skipped.map((s) => (
                <li key={s.name}>
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
