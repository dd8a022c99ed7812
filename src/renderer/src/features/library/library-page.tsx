import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import type { DatasetView } from '@shared/library/library-contract';
import { ErrorMessage } from '../../components/error-message';
import { useDrillStore } from '../../session';
import { ExportButton } from '../export';
import { JobsPanel, useJobsStore } from '../jobs';
import { DatasetGrid, type DatasetGridView } from './dataset-grid';
import { describeAge } from '../../components/format';
import { importPickerOf, useLibraryStore, type EditField, type OpenRequest } from './library-store';

const fmt = (n: number) => n.toLocaleString('en-US');
const ageOf = (iso: string) => describeAge(Math.max(0, (Date.now() - Date.parse(iso)) / 1000));
/** Names can be 200 characters without a space: cut with an ellipsis, the whole name in the tooltip. */
const ellipsis: CSSProperties = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };

/** Escape cancels; the safe answer has the focus so Enter does not delete by accident. */
function DeleteConfirm({ d, onDelete }: { d: DatasetView; onDelete: () => void }) {
  const cancelDelete = useLibraryStore((s) => s.cancelDelete);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    keep.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') cancelDelete();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [cancelDelete]);
  return (
    <span
      role="alertdialog"
      aria-label={`Delete ${d.name}?`}
      data-testid={`library-delete-confirm-box-${d.id}`}
    >
      Delete for good?{' '}
      <button type="button" data-testid={`library-delete-confirm-${d.id}`} onClick={onDelete}>
        Delete
      </button>{' '}
      <button type="button" ref={keep} data-testid={`library-delete-cancel-${d.id}`} onClick={cancelDelete}>
        Keep
      </button>
    </span>
  );
}

function DatasetRowView({ d, selected }: { d: DatasetView; selected: boolean }) {
  const { openDataset, remove, askDelete } = useLibraryStore.getState();
  const confirming = useLibraryStore((s) => s.confirmingDelete === d.id);
  const [error, setError] = useState<string | null>(null);
  return (
    <tr
      data-testid={`library-row-${d.id}`}
      data-name={d.name}
      data-kind={d.kind}
      aria-selected={selected}
      style={selected ? { background: '#3b82f622' } : undefined}
    >
      <td style={{ maxWidth: 360 }}>
        <button
          type="button"
          className="link"
          data-testid={`library-open-${d.id}`}
          onClick={() => openDataset(d.id)}
          title={d.name}
          style={{ ...ellipsis, display: 'block', maxWidth: '100%', textAlign: 'left' }}
        >
          {d.name}
        </button>
        {d.notes && (
          <div style={{ fontSize: 11, opacity: 0.75, overflowWrap: 'anywhere' }}>{d.notes.slice(0, 120)}</div>
        )}
      </td>
      <td>{d.kind}</td>
      <td data-testid={`library-rows-${d.id}`} data-stored={d.storedRows} data-total={d.reportedTotal ?? ''}>
        {fmt(d.storedRows)}
        {d.reportedTotal !== null && d.reportedTotal !== d.storedRows ? ` of ${fmt(d.reportedTotal)}` : ''}
      </td>
      <td title={d.fetchedAt}>{ageOf(d.fetchedAt)}</td>
      <td>
        {d.source === 'import' ? 'imported' : (d.profileName ?? '—')}
        {d.account ? ` / ${d.account}` : ''}
      </td>
      <td data-testid={`library-tags-${d.id}`} style={{ maxWidth: 240, overflowWrap: 'anywhere' }}>
        {d.tags.join(', ')}
      </td>
      <td data-testid={`library-status-${d.id}`}>{d.status}</td>
      <td>
        {confirming ? (
          <DeleteConfirm
            d={d}
            onDelete={() => void remove(d.id).then((e) => setError(e ? e.message : null))}
          />
        ) : (
          <button type="button" data-testid={`library-delete-${d.id}`} onClick={() => askDelete(d.id)}>
            Delete
          </button>
        )}
        {error && <div role="alert">{error}</div>}
      </td>
    </tr>
  );
}

/** The last save's outcome for one field, next to that field. */
function FieldNotice({ id, field }: { id: string; field: EditField }) {
  const notice = useLibraryStore((s) =>
    s.editNotice?.id === id && s.editNotice.field === field ? s.editNotice : null,
  );
  if (!notice) return null;
  return (
    <small
      id={`library-${field}-message`}
      role={notice.ok ? 'status' : 'alert'}
      data-testid={`library-${field}-message`}
      data-ok={notice.ok}
      className={notice.ok ? undefined : 'message--error'}
      style={{ display: 'block' }}
    >
      {notice.text}
    </small>
  );
}

function DatasetEditor({ d }: { d: DatasetView }) {
  const { rename, setTags, setNotes, clearEditNotice } = useLibraryStore.getState();
  const failed = useLibraryStore((s) =>
    s.editNotice?.id === d.id && !s.editNotice.ok ? s.editNotice.field : null,
  );
  const [name, setName] = useState(d.name);
  const [tags, setTagsText] = useState(d.tags.join(', '));
  const [notes, setNotesText] = useState(d.notes);
  return (
    <div
      data-testid="library-editor"
      style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'flex-end', margin: '8px 0' }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void rename(d.id, name);
        }}
      >
        <label>
          Name{' '}
          <input
            value={name}
            maxLength={200}
            data-testid="library-rename-input"
            aria-invalid={failed === 'name'}
            aria-describedby="library-name-message"
            onChange={(e) => {
              setName(e.target.value);
              clearEditNotice('name');
            }}
            style={{ width: 320 }}
          />
        </label>{' '}
        <button
          type="submit"
          data-testid="library-rename-save"
          disabled={!name.trim() || name.trim() === d.name}
        >
          Rename
        </button>
        <FieldNotice id={d.id} field="name" />
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void setTags(d.id, tags);
        }}
      >
        <label>
          Tags{' '}
          <input
            value={tags}
            placeholder="steel, q1"
            data-testid="library-tags-input"
            aria-invalid={failed === 'tags'}
            aria-describedby="library-tags-message"
            onChange={(e) => {
              setTagsText(e.target.value);
              clearEditNotice('tags');
            }}
          />
        </label>{' '}
        <button type="submit" data-testid="library-tags-save">
          Save tags
        </button>
        <FieldNotice id={d.id} field="tags" />
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void setNotes(d.id, notes);
        }}
        style={{ display: 'flex', gap: 4, alignItems: 'flex-end' }}
      >
        <label>
          Notes{' '}
          <textarea
            value={notes}
            rows={2}
            maxLength={20_000}
            data-testid="library-notes-input"
            aria-invalid={failed === 'notes'}
            aria-describedby="library-notes-message"
            onChange={(e) => {
              setNotesText(e.target.value);
              clearEditNotice('notes');
            }}
            style={{ width: 280 }}
          />
        </label>
        <button type="submit" data-testid="library-notes-save">
          Save notes
        </button>
        <FieldNotice id={d.id} field="notes" />
      </form>
    </div>
  );
}

function OpenDataset() {
  const open = useLibraryStore((s) => s.open);
  // A new open (another dataset, or the same one with a drill filter) starts from a clean view.
  return open ? <OpenDatasetBody key={`${open.id}:${open.seq}`} open={open} /> : null;
}

function OpenDatasetBody({ open }: { open: OpenRequest }) {
  const openMeta = useLibraryStore((s) => s.openMeta);
  const closeDataset = useLibraryStore((s) => s.closeDataset);
  const [quick, setQuick] = useState('');
  const [view, setView] = useState<DatasetGridView | null>(null);
  const [viewRows, setViewRows] = useState<number | null>(null);
  const [gridError, setGridError] = useState<string | null>(null);
  const onError = useCallback((m: string | null) => setGridError(m), []);
  // Looked up by id, not in the list: filtering the list must not close the open dataset.
  const d = openMeta?.dataset?.id === open.id ? openMeta.dataset : null;
  if (!d) {
    return (
      <div
        data-testid="library-open-state"
        data-state={openMeta?.state ?? 'loading'}
        style={{ marginTop: 12 }}
      >
        {openMeta?.state === 'missing' ? (
          <p data-testid="library-open-missing">That dataset is no longer in the library (it was deleted).</p>
        ) : openMeta?.error ? (
          <ErrorMessage error={openMeta.error} testId="library-open-error" />
        ) : (
          <p>Opening…</p>
        )}
        <button type="button" data-testid="library-close" onClick={closeDataset}>
          Close
        </button>
      </div>
    );
  }
  return (
    <section data-testid="library-detail" data-dataset-id={d.id} style={{ marginTop: 12 }}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <h2
          style={{ margin: 0, ...ellipsis, maxWidth: '100%', minWidth: 0 }}
          data-testid="library-detail-name"
          title={d.name}
        >
          {d.name}
        </h2>
        <small>
          {d.kind} · {fmt(d.storedRows)} rows stored
          {d.reportedTotal !== null ? ` of ${fmt(d.reportedTotal)} reported` : ''} · {d.status} · fetched{' '}
          {ageOf(d.fetchedAt)}
        </small>
        {open.label && (
          <span data-testid="library-drill-label" className="tag">
            Filtered: {open.label}
          </span>
        )}
        <button
          type="button"
          data-testid="library-close"
          onClick={closeDataset}
          style={{ marginLeft: 'auto' }}
        >
          Close
        </button>
      </div>
      {/* Keyed by the saved values: after a save (or a change elsewhere) the fields show what is stored; the save's message lives in the store, so it survives. */}
      <DatasetEditor key={`${d.id}:${d.name}:${d.tags.join(',')}:${d.notes}`} d={d} />
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', margin: '8px 0' }}>
        <input
          type="search"
          placeholder="Quick filter (all rows, in the library)"
          value={quick}
          data-testid="library-quick-filter"
          onChange={(e) => setQuick(e.target.value)}
          style={{ width: 320 }}
        />
        <span data-testid="library-export-slot" data-view-columns={view?.columns.length ?? 0}>
          <ExportButton
            source={{ datasetId: d.id, ...(view ? { view } : {}) }}
            suggestedName={d.name}
            counts={{ viewRows, storedRows: d.storedRows }}
          />
        </span>
      </div>
      {gridError && (
        <div role="alert" className="message message--error" data-testid="library-grid-error">
          {gridError}
        </div>
      )}
      <DatasetGrid
        key={`${d.id}:${open.seq}`}
        datasetId={d.id}
        kind={d.kind}
        storedRows={d.storedRows}
        quickFilter={quick}
        initialFilterModel={open.filterModel}
        onView={setView}
        onRowCount={setViewRows}
        onError={onError}
      />
    </section>
  );
}

/** The offline library: every saved search, job and import; browsable without network or keychain. */
export function LibraryPage() {
  const query = useLibraryStore((s) => s.query);
  const datasets = useLibraryStore((s) => s.datasets);
  const status = useLibraryStore((s) => s.status);
  const error = useLibraryStore((s) => s.error);
  const recoveryNotice = useLibraryStore((s) => s.recoveryNotice);
  const open = useLibraryStore((s) => s.open);
  const importStatus = useLibraryStore((s) => s.importStatus);
  const importPicker = useLibraryStore(importPickerOf);
  const { setQuery, refresh, importFile, chooseAndImport, openDataset, dismissRecoveryNotice } =
    useLibraryStore.getState();
  const pending = useDrillStore((s) => s.pending);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (!pending) return;
    const drill = useDrillStore.getState().take();
    if (drill) openDataset(drill.datasetId, { filterModel: drill.filterModel, label: drill.label });
  }, [pending, openDataset]);

  return (
    <section className="page library-page" data-testid="library-page" data-status={status}>
      <header className="page__header">
        <h1>Library</h1>
      </header>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <input
          type="search"
          placeholder="Search names, notes, tags"
          value={query.search}
          data-testid="library-search"
          onChange={(e) => setQuery({ search: e.target.value })}
        />
        <select
          value={query.kind}
          data-testid="library-kind"
          onChange={(e) =>
            setQuery({
              kind: e.target.value === 'firms' || e.target.value === 'shipments' ? e.target.value : '',
            })
          }
          aria-label="Kind"
        >
          <option value="">All kinds</option>
          <option value="shipments">Shipments</option>
          <option value="firms">Firms</option>
        </select>
        <input
          placeholder="Tag"
          value={query.tag}
          data-testid="library-tag-filter"
          onChange={(e) => setQuery({ tag: e.target.value })}
          style={{ width: 100 }}
        />
        {importPicker === 'upload' ? (
          // The browser host: the page picks the file and uploads it.
          <label style={{ marginLeft: 'auto' }}>
            Import a file (Excel, CSV, JSON, Parquet){' '}
            <input
              type="file"
              accept=".xlsx,.csv,.json,.parquet,application/json,text/csv"
              data-testid="library-import-input"
              disabled={importStatus.state === 'running'}
              onChange={(e) => {
                const f = e.target.files?.[0];
                e.target.value = '';
                if (f) void importFile(f);
              }}
            />
          </label>
        ) : (
          // The desktop app: main's own open dialog picks the file.
          <button
            type="button"
            className="button"
            style={{ marginLeft: 'auto' }}
            data-testid="library-import-choose"
            disabled={importStatus.state === 'running'}
            onClick={() => void chooseAndImport()}
          >
            Import a file…
          </button>
        )}
      </div>
      {importStatus.message && (
        <p role="status" data-testid="library-import-status" data-state={importStatus.state}>
          {importStatus.message}
        </p>
      )}
      {importStatus.warnings && importStatus.warnings.length > 0 && (
        <ul className="message message--warning" data-testid="library-import-warnings">
          {importStatus.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {importStatus.error && <ErrorMessage error={importStatus.error} testId="library-import-error" />}
      {recoveryNotice && (
        <div className="message message--warning" role="status" data-testid="library-recovery-notice">
          <span>{recoveryNotice}</span>{' '}
          <button type="button" className="button" onClick={dismissRecoveryNotice}>
            Dismiss
          </button>
        </div>
      )}
      {error && <ErrorMessage error={error} testId="library-error" />}
      {error?.kind === 'StorageLocked' && (
        <button
          type="button"
          className="button button--primary"
          data-testid="library-retry"
          onClick={() => {
            // The jobs panel read the same library: it asks again too.
            void refresh();
            void useJobsStore.getState().refresh();
          }}
        >
          Retry
        </button>
      )}
      <JobsPanel />
      {status === 'ready' && datasets.length === 0 ? (
        <p className="empty" data-testid="library-empty">
          {query.search || query.kind || query.tag
            ? 'No dataset matches.'
            : 'Nothing saved yet: every search you run is kept here, and works offline.'}
        </p>
      ) : (
        <div style={{ maxHeight: 300, overflow: 'auto' }}>
          <table data-testid="library-list" className="table" style={{ width: '100%', fontSize: 13 }}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Rows (stored of reported)</th>
                <th>Fetched</th>
                <th>Profile / account</th>
                <th>Tags</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {datasets.map((d) => (
                <DatasetRowView key={d.id} d={d} selected={open?.id === d.id} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <OpenDataset />
    </section>
  );
}
