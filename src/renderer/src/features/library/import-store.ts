import { fieldDefsOf, fieldTitleOf, type DatasetKind } from '@shared/fields';
import type { BridgeError } from '@shared/ipc/errors';
import type {
  ImportCheckView,
  ImportLocale,
  ImportPlan,
  ImportPreviewChoices,
  ImportPreviewView,
} from '@shared/library/import-contract';
import type { ImportResultView } from '@shared/library/library-contract';
import { getApi } from '../../bridge/api';
import { defineStore, latestWins } from '../../store';

/**
 * The import of a file, step by step: its head is read and previewed (nothing stored), the analyst
 * maps its columns onto the fields in a dialog — unless it is Portolan's own export, which says
 * which column is which field — and the import runs with progress and Cancel.
 */
export interface ImportFlowData {
  phase: 'closed' | 'reading' | 'mapping' | 'importing';
  /** The file as main holds it (an upload's or the open dialog's handle) and its name. */
  file: { handle: string; name: string } | null;
  preview: ImportPreviewView | null;
  /** The analyst's plan, as edited: one field (or null, an extra column) per column of the file. */
  mapping: (string | null)[];
  /** Columns not imported at all (their mapping is null), in file order. */
  leftOut: number[];
  locale: ImportLocale | null;
  /** The dataset's name; empty: Portolan names it after the file. */
  name: string;
  /** A new preview for the edited plan is on its way. */
  checking: boolean;
  /** A preview that failed (the file unreadable, refused): said in the dialog. */
  error: BridgeError | null;
  /**
   * The whole file read under the plan shown, in the background (nothing stored): how far it got and
   * what it found, or why it could not be read. Null while a new preview is on its way.
   */
  wholeFile: WholeFileCheck | null;
  /**
   * Rows stored so far while it imports, of the rows the file says it holds (when it says), and what
   * it is doing beyond storing rows (the file read again row by row), when it is.
   */
  progress: { done: number; total: number | null; step: string | null } | null;
  cancelling: boolean;
}

export interface WholeFileCheck {
  checkId: string;
  /** What main last said of it; null until it first reports. */
  view: ImportCheckView | null;
  error: BridgeError | null;
}

/** How an import ended, for the page to say: done (and the new dataset), cancelled or failed. */
export type ImportOutcome =
  | { kind: 'done'; result: ImportResultView; fileName: string }
  | { kind: 'failed'; error: BridgeError; fileName: string }
  /** The analyst closed the dialog before importing. */
  | { kind: 'closed'; fileName: string };

export interface ImportFlowActions {
  /** Reads the head of a file main holds and previews it; Portolan's own export is imported at once. */
  begin(file: { handle: string; name: string }, onEnd: (outcome: ImportOutcome) => void): Promise<void>;
  /** Imports the column as a field, or (null) keeps it as an extra column. */
  setField(column: number, field: string | null): void;
  /** Leaves the column out of the import. */
  leaveOut(column: number): void;
  setKind(kind: DatasetKind): void;
  setSheet(sheet: number): void;
  setHeaderRow(row: number): void;
  setLocale(locale: Partial<ImportLocale>): void;
  setName(name: string): void;
  /** Imports with the plan as shown (Enter or the Import button), when it can be. */
  confirm(): Promise<void>;
  /** Closes the dialog before the import; during it, asks main to stop (the library stays as it was). */
  cancel(): void;
  /** A `jobs.progress` of the running import. */
  progressed(done: number, total: number | null, step: string | null): void;
  /** A `library.importCheck` of the whole-file check under way. */
  checkProgressed(view: ImportCheckView): void;
}

export type ImportFlowState = ImportFlowData & ImportFlowActions;

const initialState: ImportFlowData = {
  phase: 'closed',
  file: null,
  preview: null,
  mapping: [],
  leftOut: [],
  locale: null,
  name: '',
  checking: false,
  error: null,
  wholeFile: null,
  progress: null,
  cancelling: false,
};

/** Why the plan cannot be imported as it stands, in the dialog's words; null when it can. */
export function planProblem(s: Pick<ImportFlowData, 'preview' | 'mapping'>): string | null {
  const p = s.preview;
  if (!p) return 'The file is still being read';
  // An empty file, or a header row chosen below the last row, would import an empty dataset.
  if (p.columns.length === 0) return `Nothing to import: ${p.fileName} has no columns and no rows`;
  if (p.rowsChecked === 0)
    return p.format === 'parquet' || p.format === 'json'
      ? `Nothing to import: ${p.fileName} has no rows`
      : `Nothing to import: ${p.fileName} has no rows below its header row (row ${p.headerRow.toLocaleString('en-US')})`;
  if (s.mapping.every((f) => f === null))
    return `Choose which column holds which ${p.kind === 'firms' ? 'firm' : 'shipment'} field: none is chosen`;
  const columnsOf = new Map<string, string[]>();
  s.mapping.forEach((f, c) => {
    if (f !== null)
      columnsOf.set(f, [...(columnsOf.get(f) ?? []), p.columns[c]?.header ?? `Column ${c + 1}`]);
  });
  for (const [field, columns] of columnsOf) {
    if (columns.length > 1)
      return `${fieldTitleOf(p.kind, field)} is chosen for ${columns.length} columns (${columns.join(', ')}): choose it for one`;
  }
  return null;
}

/** Whether the plan reads a field of this type from text the file wrote. */
function readsFromText(s: Pick<ImportFlowData, 'preview' | 'mapping'>, type: 'decimal' | 'date'): boolean {
  const p = s.preview;
  if (!p || p.verbatim || p.format === 'parquet' || p.format === 'json') return false;
  const types = new Map(fieldDefsOf(p.kind).map((d) => [d.field, d.type]));
  return s.mapping.some((f) => f !== null && types.get(f) === type);
}

/** Whether the decimal separator matters for this plan: a number field is read from text. */
export function decimalsMatter(s: Pick<ImportFlowData, 'preview' | 'mapping'>): boolean {
  return readsFromText(s, 'decimal');
}

/**
 * Whether the day order matters for this plan: a date field is read from text that writes day and
 * month both as numbers. Dates all in ISO form (2025-12-31) say their order themselves: nothing to ask.
 */
export function dateOrderMatters(s: Pick<ImportFlowData, 'preview' | 'mapping'>): boolean {
  return readsFromText(s, 'date') && s.preview?.dateOrderMatters === true;
}

/** The plan the dialog shows, as main takes it. */
export function planOf(
  s: Pick<ImportFlowData, 'preview' | 'mapping' | 'leftOut' | 'locale'>,
): ImportPlan | null {
  const p = s.preview;
  if (!p || !s.locale) return null;
  return {
    sheet: p.sheet,
    headerRow: p.headerRow,
    kind: p.kind,
    mapping: s.mapping,
    ...(s.leftOut.length > 0 ? { leftOut: s.leftOut } : {}),
    locale: s.locale,
  };
}

export const useImportStore = defineStore<ImportFlowData, ImportFlowActions>(
  initialState,
  (set, get, { onReset }) => {
    const previews = latestWins();
    let onEnd: (outcome: ImportOutcome) => void = () => undefined;
    let checks = 0;
    onReset(() => {
      previews.supersede();
      stopCheck();
    });

    function show(preview: ImportPreviewView): void {
      set({
        phase: 'mapping',
        preview,
        mapping: preview.columns.map((c) => c.field),
        leftOut: preview.columns.filter((c) => c.leftOut).map((c) => c.index),
        locale: preview.locale,
        checking: false,
        error: null,
      });
      void checkWholeFile();
    }

    /** Stops the whole-file check under way (the plan changed, the dialog closed, the import began). */
    function stopCheck(): void {
      const running = get().wholeFile;
      if (!running) return;
      set({ wholeFile: null });
      if (!running.view?.done && !running.error)
        void getApi().library.cancelImportCheck({ checkId: running.checkId });
    }

    /** Reads the whole file under the plan shown, in main's import worker; the dialog follows its events. */
    async function checkWholeFile(): Promise<void> {
      stopCheck();
      const s = get();
      const plan = planOf(s);
      if (!s.file || !plan || planProblem(s)) return;
      checks += 1;
      const checkId = `check-${Date.now().toString(36)}-${checks}`;
      set({ wholeFile: { checkId, view: null, error: null } });
      const r = await getApi().library.checkImport({ file: s.file.handle, plan, checkId });
      if (get().wholeFile?.checkId !== checkId) return;
      if (r.ok) set({ wholeFile: { checkId, view: r.value, error: null } });
      else if (r.error.kind === 'Cancelled') set({ wholeFile: null });
      else set({ wholeFile: { checkId, view: get().wholeFile?.view ?? null, error: r.error } });
    }

    /** Reads the preview again for changed choices (sheet, header row, kind; with the mapping and locale, or fresh). */
    async function repreview(choices: ImportPreviewChoices): Promise<void> {
      const file = get().file;
      if (!file) return;
      const turn = previews.begin();
      set({ checking: true });
      const r = await getApi().library.previewImport({ file: file.handle, choices });
      if (!turn.current || get().file?.handle !== file.handle || get().phase !== 'mapping') return;
      if (r.ok) show(r.value);
      else set({ checking: false, error: r.error });
    }

    /** The current plan's choices, for a new preview of the same sheet and header row. */
    function planChoices(): ImportPreviewChoices {
      const s = get();
      const p = s.preview!;
      return {
        sheet: p.sheet,
        headerRow: p.headerRow,
        kind: p.kind,
        mapping: s.mapping,
        leftOut: s.leftOut,
        ...(s.locale ? { locale: s.locale } : {}),
      };
    }

    async function run(plan: ImportPlan | null): Promise<void> {
      const file = get().file;
      if (!file) return;
      previews.supersede();
      stopCheck();
      set({
        phase: 'importing',
        progress: { done: 0, total: null, step: null },
        cancelling: false,
        error: null,
      });
      const name = get().name.trim();
      const r = await getApi().library.import({
        file: file.handle,
        ...(plan ? { plan } : {}),
        ...(name ? { name } : {}),
      });
      const end = onEnd;
      set({ ...initialState });
      end(
        r.ok
          ? { kind: 'done', result: r.value, fileName: file.name }
          : { kind: 'failed', error: r.error, fileName: file.name },
      );
    }

    return {
      async begin(file, end) {
        if (get().phase !== 'closed') return;
        onEnd = end;
        const turn = previews.begin();
        set({ ...initialState, phase: 'reading', file });
        const r = await getApi().library.previewImport({ file: file.handle });
        if (!turn.current || get().file?.handle !== file.handle) return;
        if (!r.ok) {
          set({ ...initialState });
          end({ kind: 'failed', error: r.error, fileName: file.name });
          return;
        }
        // Portolan's own export names every column's field (and its Parquet carries their types):
        // nothing to map, so nothing to ask.
        if (r.value.fromPortolan) {
          set({ preview: r.value });
          await run(null);
          return;
        }
        show(r.value);
      },
      setField(column, field) {
        const mapping = get().mapping.slice();
        if (column < 0 || column >= mapping.length) return;
        mapping[column] = field;
        stopCheck();
        set({ mapping, leftOut: get().leftOut.filter((c) => c !== column) });
        void repreview(planChoices());
      },
      leaveOut(column) {
        const s = get();
        if (column < 0 || column >= s.mapping.length || s.leftOut.includes(column)) return;
        const mapping = s.mapping.slice();
        mapping[column] = null;
        stopCheck();
        set({ mapping, leftOut: [...s.leftOut, column].sort((a, b) => a - b) });
        void repreview(planChoices());
      },
      setKind(kind) {
        const p = get().preview;
        if (!p || p.kind === kind) return;
        // Another kind has other fields: its automatic mapping, not this one's.
        stopCheck();
        void repreview({ sheet: p.sheet, headerRow: p.headerRow, kind });
      },
      setSheet(sheet) {
        if (get().preview?.sheet === sheet) return;
        stopCheck();
        void repreview({ sheet });
      },
      setHeaderRow(row) {
        const p = get().preview;
        if (!p || p.headerRow === row || !Number.isInteger(row) || row < 1) return;
        stopCheck();
        void repreview({ sheet: p.sheet, headerRow: row, kind: p.kind });
      },
      setLocale(locale) {
        const current = get().locale;
        if (!current) return;
        stopCheck();
        set({ locale: { ...current, ...locale } });
        void repreview(planChoices());
      },
      setName(name) {
        set({ name });
      },
      async confirm() {
        const s = get();
        if (s.phase !== 'mapping' || s.checking || planProblem(s)) return;
        await run(planOf(s));
      },
      cancel() {
        const s = get();
        if (s.phase === 'importing') {
          if (s.cancelling) return;
          set({ cancelling: true });
          void getApi().library.cancelImport();
          return;
        }
        if (s.phase === 'closed') return;
        previews.supersede();
        stopCheck();
        const end = onEnd;
        set({ ...initialState });
        end({ kind: 'closed', fileName: s.file?.name ?? '' });
      },
      progressed(done, total, step) {
        if (get().phase === 'importing') set({ progress: { done, total, step } });
      },
      checkProgressed(view) {
        const running = get().wholeFile;
        // Events of a check stopped before may still be on their way; a finished one is not undone.
        if (running?.checkId !== view.checkId || running.view?.done || running.error) return;
        if (running.view && running.view.rowsChecked > view.rowsChecked) return;
        set({ wholeFile: { ...running, view } });
      },
    };
  },
);

/** The running import's progress, from main's `jobs.progress` (an import's job id starts with `import-`). */
export function connectImportStore(): () => void {
  const api = getApi();
  const offProgress = api.on('jobs.progress', (p) => {
    if (p.kind === 'import') useImportStore.getState().progressed(p.done, p.total, p.step);
  });
  const offCheck = api.on('library.importCheck', (c) => useImportStore.getState().checkProgressed(c));
  return () => {
    offProgress();
    offCheck();
  };
}
