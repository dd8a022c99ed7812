import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExportFormat, ExportSourceRef, ExportTarget, ExportView } from '@shared/export/export-contract';
import type { Events } from '@shared/ipc/contract';
import { ErrorMessage } from '../../components/error-message';
import { useDialogFocus } from '../../components/use-dialog-focus';
import { api } from '../../bridge/api';
import {
  describeDatasetChoice,
  describeProgress,
  describeRowsToExport,
  describeViewChoice,
  FORMAT_NAMES,
  progressPercent,
  type ExportApi,
  type ExportCounts,
  type ExportStep,
} from './export-flow';
import { useExportScope } from './use-export-scope';

type Subscribe = <E extends 'jobs.progress' | 'jobs.finished'>(
  event: E,
  listener: (payload: Events[E]) => void,
) => () => void;

export interface ExportButtonProps {
  source: ExportSourceRef;
  /** Offered as the file name (the dataset's name). */
  suggestedName?: string;
  /** Read when Export is pressed, for grids whose view changes without re-rendering this button. */
  resolveView?: () => ExportView | undefined;
  /** The view's and the dataset's row counts, so the dialog can say how many rows the export writes. */
  counts?: ExportCounts;
  /** For tests: the bridge's export calls and events; the app's own bridge by default. */
  exportApi?: ExportApi;
  subscribe?: Subscribe;
}

const FORMATS: readonly ExportFormat[] = ['xlsx', 'csv', 'parquet'];

/**
 * "Export…": a small dialog to pick the format, the summary sheets and the file, then a progress bar
 * with cancel, then where the file went. An existing file is replaced only after the user says so.
 */
export function ExportButton({
  source,
  suggestedName,
  resolveView,
  counts,
  exportApi,
  subscribe,
}: ExportButtonProps) {
  const calls: ExportApi = exportApi ?? api.export;
  const on: Subscribe = subscribe ?? ((event, listener) => api.on(event, listener));
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const [summaries, setSummaries] = useState(false);
  const [target, setTarget] = useState<ExportTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const [state, setState] = useState<ExportStep>({ step: 'form', error: null });
  const scope = useExportScope(source, resolveView, counts);
  const nothingToExport = scope.rows === 0;
  const jobRef = useRef<string | null>(null);
  // A short export can finish before export.start's answer arrives (events and answers travel
  // separately), so outcomes of jobs not yet known here are kept until the answer comes.
  const early = useRef(new Map<string, Events['jobs.finished']>());

  useEffect(() => {
    const offProgress = on('jobs.progress', (p) => {
      if (p.jobId !== jobRef.current) return;
      setState((s) => (s.step === 'running' && s.jobId === p.jobId ? { ...s, progress: p } : s));
    });
    const offFinished = on('jobs.finished', (f) => {
      if (f.jobId !== jobRef.current) {
        early.current.set(f.jobId, f);
        if (early.current.size > 20) early.current.delete(early.current.keys().next().value as string);
        return;
      }
      jobRef.current = null;
      setState((s) =>
        s.step === 'running' && s.jobId === f.jobId
          ? { step: 'done', outcome: f.outcome, message: f.message, path: s.path }
          : s,
      );
    });
    return () => {
      offProgress();
      offFinished();
    };
    // Subscribed once per mount; the job id is read through the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const name = suggestedName?.trim() || 'export';

  const choose = useCallback(async () => {
    setBusy(true);
    const r = await calls.chooseTarget({ suggestedName: name, format });
    setBusy(false);
    if (!r.ok) setState({ step: 'form', error: r.error });
    else if (r.value) {
      setTarget(r.value);
      setState({ step: 'form', error: null });
    }
  }, [calls, name, format]);

  const start = useCallback(
    async (overwrite: boolean) => {
      setBusy(true);
      const r = await calls.start({
        source: scope.sourceToExport(),
        format,
        ...(format === 'xlsx' && summaries ? { summaries: true } : {}),
        ...(target ? { target: target.handle } : {}),
        ...(overwrite ? { overwrite: true } : {}),
      });
      setBusy(false);
      if (r.ok) {
        const finished = early.current.get(r.value.jobId);
        if (finished) {
          setState({
            step: 'done',
            outcome: finished.outcome,
            message: finished.message,
            path: r.value.path,
          });
          return;
        }
        jobRef.current = r.value.jobId;
        setState({
          step: 'running',
          jobId: r.value.jobId,
          path: r.value.path,
          progress: null,
          cancelling: false,
        });
      } else if (r.error.kind === 'Conflict') {
        setState({ step: 'confirmReplace', message: r.error.message });
      } else {
        setState({ step: 'form', error: r.error });
      }
    },
    [calls, scope, format, summaries, target],
  );

  const cancel = useCallback(async () => {
    if (state.step !== 'running') return;
    setState({ ...state, cancelling: true });
    await calls.cancel({ jobId: state.jobId });
  }, [calls, state]);

  const close = (): void => {
    if (state.step === 'running') return;
    setOpen(false);
    setState({ step: 'form', error: null });
  };
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
      <button
        ref={openRef}
        type="button"
        className="button"
        data-testid="export-open"
        onClick={() => {
          scope.capture();
          setOpen(true);
        }}
      >
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
                    onChange={() => {
                      setFormat(f);
                      setTarget(null);
                    }}
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
              <button
                type="button"
                className="button"
                data-testid="export-replace-no"
                onClick={() => setState({ step: 'form', error: null })}
              >
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
