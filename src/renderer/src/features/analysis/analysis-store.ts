import {
  MAX_SUMMARY_LIMIT,
  type AnalysisDataset,
  type FirmGrouping,
  type FirmProfile,
  type FirmRole,
  type Measure,
  type SnapshotDiff,
  type SummaryKind,
  type SummaryResult,
  type SummaryRow,
  type TableExportInput,
} from '@shared/analysis/analysis-contract';
import type { BridgeError } from '@shared/ipc/errors';
import { getApi } from '../../bridge/api';
import { useDrillStore, useResolutionStore } from '../../session';
import { defineStore, latestWins } from '../../store';
import { MEASURE_LABELS } from './chart-options';
import { XLSX_MIME, download } from './download';
import { num } from './format';
import { summaryTable } from './table-export';

export const PAGE_SUMMARIES: readonly SummaryKind[] = [
  'importers',
  'exporters',
  'months',
  'hs',
  'flows',
  'departurePorts',
  'arrivalPorts',
];

/**
 * The page's tabs: one per summary (the two port summaries share one), and the comparison of two
 * datasets. A tab is a place the analyst goes to, so it is kept while the dataset or measure changes.
 */
export const ANALYSIS_TABS = [
  'importers',
  'exporters',
  'months',
  'hs',
  'flows',
  'ports',
  'unitValues',
  'compare',
] as const;
export type AnalysisTab = (typeof ANALYSIS_TABS)[number];

/** The summaries each tab shows. */
export const TAB_SUMMARIES: Record<AnalysisTab, readonly SummaryKind[]> = {
  importers: ['importers'],
  exporters: ['exporters'],
  months: ['months'],
  hs: ['hs'],
  flows: ['flows'],
  ports: ['departurePorts', 'arrivalPorts'],
  unitValues: [],
  compare: [],
};

export const isAnalysisTab = (v: string | null): v is AnalysisTab =>
  (ANALYSIS_TABS as readonly string[]).includes(v ?? '');

/** 400 years of months: in effect all of them, within the bridge's limit. */
const MAX_MONTHS = 5000;

interface Slot<T> {
  value: T | null;
  loading: boolean;
  error: BridgeError | null;
}
const idle = <T>(): Slot<T> => ({ value: null, loading: false, error: null });

export interface AnalysisData {
  datasets: Slot<AnalysisDataset[]>;
  datasetId: string | null;
  measure: Measure;
  /** Firms as the records write them (one per firm code), or resolved: every spelling of a firm as one. */
  firms: FirmGrouping;
  limit: number;
  tab: AnalysisTab;
  /** HS chapters (2 digits) and headings (4 digits) opened in the HS table; kept while the tab changes. */
  hsOpen: readonly string[];
  summaries: Partial<Record<SummaryKind, Slot<SummaryResult>>>;
  profile: Slot<FirmProfile>;
  diff: Slot<SnapshotDiff> & { compareId: string | null; role: FirmRole };
  exportError: BridgeError | null;
}

export interface AnalysisActions {
  loadDatasets(): Promise<void>;
  selectDataset(id: string): Promise<void>;
  setMeasure(measure: Measure): Promise<void>;
  /** Counts firms as written or resolved: the summaries load again, the profile and the diff close. */
  setFirms(firms: FirmGrouping): Promise<void>;
  /** Every summary of the page for the chosen dataset and measure; a newer request wins. */
  loadSummaries(): Promise<void>;
  /** The profile of a firm summary's row: `key` is its firm code, or its resolved firm when firms are resolved. */
  openProfile(key: string): Promise<void>;
  closeProfile(): void;
  setTab(tab: AnalysisTab): void;
  /** Opens or closes an HS chapter or heading of the HS table. */
  toggleHs(code: string): void;
  setDiffOptions(o: { compareId?: string | null; role?: FirmRole }): void;
  /** Compares the chosen dataset (before) with `compareId` (after). */
  runDiff(): Promise<void>;
  drillDown(row: Pick<SummaryRow, 'drill'> | null): void;
  /** Files are named by table and dataset, so exports of the same table from two datasets do not collide. */
  exportTable(input: TableExportInput): Promise<void>;
  /**
   * A page summary as an Excel table with every group, not only the rows the page shows: the page's
   * result is reused when it already holds them all, otherwise the summary is asked again without the
   * display limit. Should a dataset have more groups than the bridge returns, the file says it holds
   * the top ones only.
   */
  exportSummary(kind: SummaryKind, title: string): Promise<void>;
}

export type AnalysisState = AnalysisData & AnalysisActions;

const initial: AnalysisData = {
  datasets: idle(),
  datasetId: null,
  measure: 'shipments',
  firms: 'asWritten',
  limit: 15,
  tab: 'importers',
  hsOpen: [],
  summaries: {},
  profile: idle(),
  diff: { ...idle<SnapshotDiff>(), compareId: null, role: 'importer' },
  exportError: null,
};

/** The dataset chosen in the page's dataset list, if it is listed. */
export function chosenDataset(s: AnalysisState): AnalysisDataset | null {
  return s.datasets.value?.find((d) => d.id === s.datasetId) ?? null;
}

/**
 * Why Compare cannot run yet, in the analyst's words (null once a dataset to compare with is chosen):
 * a disabled button alone does not say that a second dataset is needed, or where it comes from.
 */
export function selectDiffHint(s: AnalysisData): string | null {
  if (s.diff.compareId) return null;
  const others = (s.datasets.value ?? []).filter((d) => d.id !== s.datasetId);
  return others.length === 0
    ? 'Compare needs a second shipments dataset in the Library: run the same search again later, or another one, or import a file; then choose it here.'
    : 'Choose the dataset to compare with (the later one), then Compare.';
}

/** How many of the page's summaries are still being computed (0 once every one has its answer). */
export function summariesComputing(s: AnalysisState): number {
  return PAGE_SUMMARIES.filter((k) => s.summaries[k]?.loading).length;
}

/** A chosen dataset without rows has nothing to summarise: the page says so once instead of seven empty sections. */
/**
 * What to say when a firm summary counted as written holds shipments whose firm gives no firm code (an
 * imported file's rows usually give none): they are all one row, "(no firm code)", so the analyst is
 * told and offered Resolved, which counts firms by their names. Null when there are none, or firms are
 * resolved.
 */
export function uncodedFirmNote(result: SummaryResult | null): string | null {
  if (!result || result.firms !== 'asWritten') return null;
  if (result.kind !== 'importers' && result.kind !== 'exporters') return null;
  const n = result.rows.find((r) => r.key === null)?.shipments ?? 0;
  if (n === 0) return null;
  const total = result.totals.shipments;
  const who =
    n < total
      ? `${num(n)} of the ${num(total)} shipments give no firm code`
      : n === 1
        ? 'The shipment gives no firm code'
        : `None of the ${num(n)} shipments gives a firm code`;
  return `${who} (an imported file rarely does), so “As written” counts their ${result.kind} as one firm, “(no firm code)”. Resolved counts firms by their names.`;
}

export function chosenDatasetIsEmpty(s: AnalysisState): boolean {
  return chosenDataset(s)?.storedRows === 0;
}

export const useAnalysisStore = defineStore<AnalysisData, AnalysisActions>(
  initial,
  (set, get, { onReset }) => {
    const summaryReads = latestWins();
    onReset(() => summaryReads.supersede());
    return {
      async loadDatasets() {
        set({ datasets: { ...get().datasets, loading: true, error: null } });
        const r = await getApi().analysis.datasets();
        if (!r.ok) {
          set({ datasets: { value: null, loading: false, error: r.error } });
          return;
        }
        set({ datasets: { value: r.value, loading: false, error: null } });
        const current = get().datasetId;
        if (!current || !r.value.some((d) => d.id === current)) {
          const first = r.value[0];
          if (first) await get().selectDataset(first.id);
          else set({ datasetId: null, summaries: {} });
        }
      },

      async selectDataset(id: string) {
        set({
          datasetId: id,
          hsOpen: [],
          summaries: {},
          profile: idle(),
          diff: { ...initial.diff, role: get().diff.role },
        });
        await get().loadSummaries();
      },

      async setMeasure(measure: Measure) {
        set({ measure });
        await get().loadSummaries();
      },

      async setFirms(firms: FirmGrouping) {
        if (firms === get().firms) return;
        set((s) => ({ firms, profile: idle(), diff: { ...s.diff, value: null, error: null } }));
        await get().loadSummaries();
      },

      async loadSummaries() {
        const { datasetId, measure, limit, firms } = get();
        if (!datasetId) return;
        const turn = summaryReads.begin();
        if (chosenDatasetIsEmpty(get())) {
          set({ summaries: {} });
          return;
        }
        const loading: Partial<Record<SummaryKind, Slot<SummaryResult>>> = {};
        for (const k of PAGE_SUMMARIES)
          loading[k] = { value: get().summaries[k]?.value ?? null, loading: true, error: null };
        set({ summaries: loading });
        await Promise.all(
          PAGE_SUMMARIES.map(async (kind) => {
            const r = await getApi().analysis.summary({
              datasetId,
              kind,
              measure,
              firms,
              // The trend needs every month (ordered by month, a limit would keep only the oldest ones).
              limit: kind === 'flows' ? 40 : kind === 'months' ? MAX_MONTHS : limit,
            });
            if (!turn.current) return;
            set((s) => ({
              summaries: {
                ...s.summaries,
                [kind]: r.ok
                  ? { value: r.value, loading: false, error: null }
                  : { value: null, loading: false, error: r.error },
              },
            }));
          }),
        );
      },

      async openProfile(key: string) {
        const { datasetId, firms } = get();
        if (!datasetId) return;
        set({ profile: { value: null, loading: true, error: null } });
        const r = await getApi().analysis.firmProfile(
          firms === 'resolved' ? { datasetId, firmId: key } : { datasetId, urlCode: key },
        );
        set({
          profile: r.ok
            ? { value: r.value, loading: false, error: null }
            : { value: null, loading: false, error: r.error },
        });
      },

      closeProfile() {
        set({ profile: idle() });
      },

      setTab(tab: AnalysisTab) {
        set({ tab });
      },

      toggleHs(code: string) {
        set((s) => ({
          hsOpen: s.hsOpen.includes(code) ? s.hsOpen.filter((c) => c !== code) : [...s.hsOpen, code],
        }));
      },

      setDiffOptions(o: { compareId?: string | null; role?: FirmRole }) {
        set((s) => ({ diff: { ...s.diff, ...o } }));
      },

      async runDiff() {
        const { datasetId, diff, firms } = get();
        if (!datasetId || !diff.compareId) return;
        set({ diff: { ...diff, loading: true, error: null } });
        const r = await getApi().analysis.diff({
          baseId: datasetId,
          compareId: diff.compareId,
          role: diff.role,
          firms,
        });
        set((s) => ({
          diff: { ...s.diff, loading: false, value: r.ok ? r.value : null, error: r.ok ? null : r.error },
        }));
      },

      drillDown(row: Pick<SummaryRow, 'drill'> | null) {
        if (row?.drill) useDrillStore.getState().open(row.drill);
      },

      async exportTable(input: TableExportInput) {
        set({ exportError: null });
        const r = await getApi().analysis.exportXlsx(input);
        if (!r.ok) {
          set({ exportError: r.error });
          return;
        }
        download(r.value.fileName, `data:${XLSX_MIME};base64,${r.value.base64}`);
      },

      async exportSummary(kind: SummaryKind, title: string) {
        const state = get();
        const shown = state.summaries[kind]?.value;
        if (!shown) return;
        const datasetName = chosenDataset(state)?.name;
        let full = shown;
        if (shown.omittedGroups > 0) {
          set({ exportError: null });
          const r = await getApi().analysis.summary({
            datasetId: shown.datasetId,
            kind,
            measure: shown.measure,
            firms: shown.firms,
            limit: MAX_SUMMARY_LIMIT,
          });
          if (!r.ok) {
            set({ exportError: r.error });
            return;
          }
          full = r.value;
        }
        await get().exportTable(
          summaryTable(title, full.rows, {
            datasetName,
            note: full.omittedGroups > 0 ? summaryCutNote(full) : undefined,
          }),
        );
      },
    };
  },
);

function summaryCutNote(r: SummaryResult): string {
  const all = r.rows.length + r.omittedGroups;
  return `Top ${num(r.rows.length)} of ${num(all)} groups by ${MEASURE_LABELS[r.measure]}; the other ${num(r.omittedGroups)} are not in this file.`;
}

/**
 * Follows the library's firm resolution: while firms are counted resolved, a merge, a split or a
 * verdict anywhere shows at once (the summaries, the open firm profile and a shown diff read again).
 * Called by the app (connectStores); returns the disconnect.
 */
export function connectAnalysisStore(): () => void {
  return useResolutionStore.subscribe((s, prev) => {
    if (s.version === prev.version) return;
    const a = useAnalysisStore.getState();
    if (a.firms !== 'resolved' || !a.datasetId) return;
    void a.loadSummaries();
    const firmId = a.profile.value?.firmId;
    if (firmId) void a.openProfile(firmId);
    if (a.diff.value) void a.runDiff();
  });
}
