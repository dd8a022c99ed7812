import { useEffect, useRef } from 'react';
import type { ExportFormat, ExportSourceRef, ExportView } from '@shared/export/export-contract';
import { ErrorMessage } from '../../components/error-message';
import { useDialogFocus } from '../../components/use-dialog-focus';
import {
  describeDatasetChoice,
  describeProgress,
  describeRowsToExport,
  describeViewChoice,
  FORMAT_NAMES,
  progressPercent,
  type ExportCounts,
} from './export-flow';
import { useExportDialog } from './use-export-dialog';

export interface ExportButtonProps {
  source: ExportSourceRef;
  /** Offered as the file name (the dataset's name). */
  suggestedName?: string;
  /** Read when Export is pressed, for grids whose view changes without re-rendering this button. */
  resolveView?: () => ExportView | undefined;
  /** The view's and the dataset's row counts, so the dialog can say how many rows the export writes. */
  counts?: ExportCounts;
}

const FORMATS: readonly ExportFormat[] = ['xlsx', 'csv', 'parquet'];

/**
 * "Export…": a small dialog to pick the format, the summary sheets and the file, then a progress bar
 * with cancel, then where the file went. An existing file is replaced only after the user says so.
 */
export function ExportButton({ source, suggestedName, resolveView, counts }: ExportButtonProps) {
  const {
    open,
    state,
    format,
    summaries,
    target,
    busy,
    scope,
    nothingToExport,
    show,
    close,
    setFormat,
    setSummaries,
    choose,
    start,
    keepExisting,
    cancel,
  } = useExportDialog({ source, suggestedName, resolveView, counts });
  const dialogRef = useRef<HTMLDivElement>(null);
  useDialogFocus(dialogRef, open, close, { trap: true });
  // The dialog replaces the button, so focus goes back to the button drawn anew when it closes.
  const openRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!open && wasOpen.current) openRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  if (!open) {
    return (
      <button ref={openRef} type="button" className="button" data-testid="export-open" onClick={show}>
        Export…
      </button>
    );
  }

  const percent = state.step === 'running' ? progressPercent(state.progress) : null;
  return (
    <div
      ref={dialogRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby="export-title"
      data-testid="export-dialog"
      data-step={state.step}
      className="dialog"
      style={{
        position: 'fixed',
        inset: 0,
        background: '#0006',
        display: 'grid',
        placeItems: 'center',
        zIndex: 50,
      }}
    >
      <div
        style={{
          background: 'var(--bg, #fff)',
          color: 'inherit',
          padding: 16,
          borderRadius: 8,
          minWidth: 380,
          maxWidth: 560,
          boxShadow: '0 4px 24px #0005',
        }}
      >
        <h2 id="export-title">Export</h2>

        {state.step === 'form' && (
          <>
            {scope.view && (
              <fieldset
                disabled={busy}
                data-testid="export-scope"
                data-scope={scope.scope}
                style={{ border: 0, padding: 0, marginBottom: 8 }}
              >
                <legend>What to export</legend>
                <label style={{ display: 'block' }}>
                  <input
                    type="radio"
                    name="export-scope"
                    value="view"
                    data-testid="export-scope-view"
                    checked={scope.scope === 'view'}
                    onChange={() => scope.setScope('view')}
                  />{' '}
                  {describeViewChoice(scope.view, counts)}
                </label>
                <label style={{ display: 'block' }}>
                  <input
                    type="radio"
                    name="export-scope"
                    value="dataset"
                    data-testid="export-scope-dataset"
                    checked={scope.scope === 'dataset'}
                    onChange={() => scope.setScope('dataset')}
                  />{' '}
                  {describeDatasetChoice(counts)}
                </label>
              </fieldset>
            )}
            {counts && (
              <p
                role={nothingToExport ? 'alert' : undefined}
                data-testid="export-row-count"
                data-rows={scope.rows ?? ''}
                className={nothingToExport ? 'message' : undefined}
                style={
                  nothingToExport
                    ? { margin: '0 0 8px', color: 'var(--warn)', background: 'var(--warn-soft)' }
                    : { margin: '0 0 8px' }
                }
              >
                {describeRowsToExport(scope.scope, counts)}
              </p>
            )}
            <fieldset disabled={busy} style={{ border: 0, padding: 0 }}>
              <legend>Format</legend>
              {FORMATS.map((f) => (
                <label key={f} style={{ marginRight: 12 }}>
                  <input
                    type="radio"
                    name="export-format"
                    value={f}
                    data-testid={`export-format-${f}`}
                    checked={format === f}
                    onChange={() => setFormat(f)}
                  />{' '}
                  {FORMAT_NAMES[f]}
                </label>
              ))}
            </fieldset>
            <label style={{ display: 'block', marginTop: 8, opacity: format === 'xlsx' ? 1 : 0.5 }}>
              <input
                type="checkbox"
                data-testid="export-summaries"
                checked={summaries}
                disabled={format !== 'xlsx' || busy}
                onChange={(e) => setSummaries(e.target.checked)}
              />{' '}
              Include summary sheets (top importers and exporters, by HS code, by month)
            </label>
            <div style={{ marginTop: 8 }}>
              <button
                type="button"
                className="button"
                data-testid="export-choose"
                disabled={busy}
                onClick={() => void choose()}
              >
                Choose file…
              </button>{' '}
              <span data-testid="export-path">{target?.location ?? 'No file chosen'}</span>
            </div>
            {state.error && <ErrorMessage error={state.error} testId="export-error" />}
          </>
        )}

        {state.step === 'confirmReplace' && (
          <p role="alert" data-testid="export-replace-question">
            {state.message}
          </p>
        )}

        {state.step === 'running' && (
          <div
            data-testid="export-progress"
            data-done={state.progress?.done ?? 0}
            data-total={state.progress?.total ?? ''}
          >
            <progress
              max={100}
              value={percent ?? undefined}
              style={{ width: '100%' }}
              aria-label="Export progress"
            />
            <p data-testid="export-progress-text">
              {state.cancelling ? 'Cancelling…' : describeProgress(state.progress)}
            </p>
            <p>
              Writing <span data-testid="export-running-path">{state.path}</span>
            </p>
          </div>
        )}

        {state.step === 'done' && (
          <div data-testid="export-done" data-outcome={state.outcome}>
            <p role={state.outcome === 'failed' ? 'alert' : 'status'}>{state.message}</p>
            {state.outcome === 'succeeded' && (
              <p>
                Saved to <code data-testid="export-done-path">{state.path}</code>
              </p>
            )}
            {state.outcome === 'succeeded' && state.downloadUrl && (
              <p>
                <a
                  className="button button--primary"
                  href={state.downloadUrl}
                  download
                  data-testid="export-download"
                >
                  Download the file
                </a>
              </p>
            )}
          </div>
        )}

        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 12 }}>
          {state.step === 'form' && (
            <>
              <button type="button" className="button" data-testid="export-close" onClick={close}>
                Close
              </button>
              <button
                type="button"
                className="button button--primary"
                data-testid="export-start"
                disabled={busy || nothingToExport}
                onClick={() => void start(false)}
              >
                Export
              </button>
            </>
          )}
          {state.step === 'confirmReplace' && (
            <>
              <button type="button" className="button" data-testid="export-replace-no" onClick={keepExisting}>
                Keep it
              </button>
              <button
                type="button"
                className="button button--danger"
                data-testid="export-replace-yes"
                disabled={busy}
                onClick={() => void start(true)}
              >
                Replace
              </button>
            </>
          )}
          {state.step === 'running' && (
            <button
              type="button"
              className="button"
              data-testid="export-cancel"
              disabled={state.cancelling}
              onClick={() => void cancel()}
            >
              Cancel export
            </button>
          )}
          {state.step === 'done' && (
            <button
              type="button"
              className="button button--primary"
              data-testid="export-close"
              onClick={close}
            >
              Close
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
