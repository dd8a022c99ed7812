import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExportFormat, ExportSourceRef, ExportTarget, ExportView } from '@shared/export/export-contract';
import type { CallInput } from '@shared/ipc/contract';
import type { JobFinished } from '@shared/jobs/jobs-contract';
import { getApi } from '../../bridge/api';
import { failureDetail, folderWasTheProblem, type ExportCounts, type ExportStep } from './export-flow';
import { useExportScope, type ExportScopeState } from './use-export-scope';

export interface ExportDialogOptions {
  source: ExportSourceRef;
  /** Offered as the file name (the dataset's name). */
  suggestedName?: string | undefined;
  /** Read when Export is pressed, for grids whose view changes without re-rendering the button. */
  resolveView?: (() => ExportView | undefined) | undefined;
  /** The view's and the dataset's row counts, so the dialog can say how many rows the export writes. */
  counts?: ExportCounts | undefined;
}

type ExportStart = CallInput<'export.start'>;

export interface ExportDialog {
  open: boolean;
  state: ExportStep;
  format: ExportFormat;
  summaries: boolean;
  /** The file chosen in main's save dialog (or the host's exports folder): a handle and where it is. */
  target: ExportTarget | null;
  /** A call to main is under way: the form is disabled meanwhile. */
  busy: boolean;
  scope: ExportScopeState;
  /** The chosen scope writes no row: Export is disabled. */
  nothingToExport: boolean;
  /**
   * The browser host: the file reaches the analyst as a browser download, so the dialog names the file
   * only (the host's folder means nothing to them); the desktop app names the path they chose.
   */
  downloads: boolean;
  show(): void;
  /** Closes the dialog, except while an export runs (it must be cancelled first). */
  close(): void;
  setFormat(format: ExportFormat): void;
  setSummaries(on: boolean): void;
  choose(): Promise<void>;
  /** `overwrite`: the analyst agreed to replace the existing file. */
  start(overwrite: boolean): Promise<void>;
  /** "Keep it": back to the form without replacing anything. */
  keepExisting(): void;
  /** After a failure: the same export again, with the same settings and file. */
  tryAgain(): Promise<void>;
  /**
   * After a failure whose folder was the problem: asks for another place (main's save dialog), then
   * the same export there. Nothing happens if the analyst cancels the save dialog.
   */
  tryAnotherFolder(): Promise<void>;
  cancel(): Promise<void>;
}

/**
 * The export dialog's state machine: form → (confirm replace) → running → done. Main answers
 * `export.start` and reports the job through `jobs.progress` / `jobs.finished`; a short export can end
 * before the start call's answer arrives (answers and events travel separately), so outcomes of jobs
 * not yet known here are kept until that answer comes.
 */
export function useExportDialog({
  source,
  suggestedName,
  resolveView,
  counts,
}: ExportDialogOptions): ExportDialog {
  const [open, setOpen] = useState(false);
  const [format, setFormatState] = useState<ExportFormat>('xlsx');
  const [summaries, setSummaries] = useState(false);
  const [target, setTarget] = useState<ExportTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const [state, setState] = useState<ExportStep>({ step: 'form', error: null });
  const scope = useExportScope(source, resolveView, counts);
  const jobRef = useRef<string | null>(null);
  const early = useRef(new Map<string, JobFinished>());
  const downloads = getApi().fileTransfer !== undefined;

  // A finished export in the browser host is handed to the browser at once, as a desktop app's save
  // would have put it on disk; the dialog's link downloads it again.
  const succeededUrl = state.step === 'done' && state.outcome === 'succeeded' ? state.downloadUrl : null;
  useEffect(() => {
    if (succeededUrl) startDownload(succeededUrl);
  }, [succeededUrl]);

  useEffect(() => {
    const api = getApi();
    const offProgress = api.on('jobs.progress', (p) => {
      if (p.jobId !== jobRef.current) return;
      setState((s) => (s.step === 'running' && s.jobId === p.jobId ? { ...s, progress: p } : s));
    });
    const offFinished = api.on('jobs.finished', (f) => {
      if (f.jobId !== jobRef.current) {
        early.current.set(f.jobId, f);
        if (early.current.size > 20) early.current.delete(early.current.keys().next().value as string);
        return;
      }
      jobRef.current = null;
      setState((s) =>
        s.step === 'running' && s.jobId === f.jobId
          ? {
              step: 'done',
              outcome: f.outcome,
              message: f.message,
              path: s.path,
              downloadUrl: s.downloadUrl,
              anotherFolder: folderWasTheProblem(f),
              detail: failureDetail(f),
            }
          : s,
      );
    });
    return () => {
      offProgress();
      offFinished();
    };
  }, []);

  const name = suggestedName?.trim() || 'export';

  const choose = useCallback(async () => {
    setBusy(true);
    const r = await getApi().export.chooseTarget({ suggestedName: name, format });
    setBusy(false);
    if (!r.ok) setState({ step: 'form', error: r.error });
    else if (r.value) {
      setTarget(r.value);
      setState({ step: 'form', error: null });
    }
  }, [name, format]);

  // What the last export asked for, so Try again sends exactly that (the view as it was captured).
  const lastStart = useRef<ExportStart | null>(null);

  const send = useCallback(async (input: ExportStart) => {
    lastStart.current = input;
    setBusy(true);
    const r = await getApi().export.start(input);
    setBusy(false);
    if (r.ok) {
      // The browser host has no folder the analyst's browser saves to: it offers the file for download.
      const transfer = getApi().fileTransfer;
      const downloadUrl = transfer ? transfer.downloadUrl(r.value.handle) : null;
      const finished = early.current.get(r.value.jobId);
      if (finished) {
        setState({
          step: 'done',
          outcome: finished.outcome,
          message: finished.message,
          path: r.value.path,
          downloadUrl,
          anotherFolder: folderWasTheProblem(finished),
          detail: failureDetail(finished),
        });
        return;
      }
      jobRef.current = r.value.jobId;
      setState({
        step: 'running',
        jobId: r.value.jobId,
        path: r.value.path,
        downloadUrl,
        progress: null,
        cancelling: false,
      });
    } else if (r.error.kind === 'Conflict') {
      setState({ step: 'confirmReplace', message: r.error.message });
    } else {
      setState({ step: 'form', error: r.error });
    }
  }, []);

  const start = useCallback(
    (overwrite: boolean) =>
      send({
        source: scope.sourceToExport(),
        format,
        ...(format === 'xlsx' && summaries ? { summaries: true } : {}),
        ...(target ? { target: target.handle } : {}),
        ...(overwrite ? { overwrite: true } : {}),
      }),
    [send, scope, format, summaries, target],
  );

  const tryAgain = useCallback(async () => {
    if (lastStart.current) await send(lastStart.current);
  }, [send]);

  const tryAnotherFolder = useCallback(async () => {
    const last = lastStart.current;
    if (!last) return;
    setBusy(true);
    const r = await getApi().export.chooseTarget({ suggestedName: name, format: last.format });
    setBusy(false);
    if (!r.ok) {
      setState({ step: 'form', error: r.error });
      return;
    }
    if (!r.value) return;
    setTarget(r.value);
    // A file of that name may already be there: asked about as for any new file, not replaced unasked.
    const { overwrite: _replaced, ...rest } = last;
    await send({ ...rest, target: r.value.handle });
  }, [send, name]);

  const cancel = useCallback(async () => {
    if (state.step !== 'running') return;
    setState({ ...state, cancelling: true });
    await getApi().export.cancel({ jobId: state.jobId });
  }, [state]);

  const close = useCallback(() => {
    if (state.step === 'running') return;
    setOpen(false);
    setState({ step: 'form', error: null });
  }, [state.step]);

  const { capture } = scope;
  const show = useCallback(() => {
    capture();
    setOpen(true);
  }, [capture]);

  return {
    open,
    state,
    format,
    summaries,
    target,
    busy,
    scope,
    nothingToExport: scope.rows === 0,
    downloads,
    show,
    close,
    setFormat: (f) => {
      setFormatState(f);
      // A file chosen for another format would carry the wrong extension.
      setTarget(null);
    },
    setSummaries,
    choose,
    start,
    keepExisting: () => setState({ step: 'form', error: null }),
    tryAgain,
    tryAnotherFolder,
    cancel,
  };
}

/** Hands a file URL to the browser as a download (the link's `download` attribute keeps the page where it is). */
function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
