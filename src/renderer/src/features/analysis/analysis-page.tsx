import { useEffect, useMemo, useRef, useState } from 'react';
import type { ECharts } from 'echarts/core';
import {
  MEASURES,
  type Measure,
  type SummaryKind,
  type SummaryResult,
  type SummaryRow,
} from '@shared/analysis/analysis-contract';
import { ErrorMessage } from '../../components/error-message';
import {
  chosenDataset,
  chosenDatasetIsEmpty,
  closeProfile,
  drillDown,
  exportSummary,
  exportTable,
  loadDatasets,
  openProfile,
  runDiff,
  selectDataset,
  setDiffOptions,
  setMeasure,
  useAnalysisStore,
} from './analysis-store';
import {
  MEASURE_LABELS,
  barOption,
  lineOption,
  measureValue,
  rowOfClick,
  sankeyOption,
  treemapOption,
} from './chart-options';
import { EChart, chartImage, type ChartClick } from './echart';
import { download } from './download';
import { count, num, pct } from './format';
import { diffTable, summaryTable } from './table-export';
import './analysis.css';

/** Longer tables are cut (with a note): the page stays quick; exports carry every row. */
const MAX_TABLE_ROWS = 300;

const TITLES: Record<SummaryKind, string> = {
  importers: 'Top importers',
  exporters: 'Top exporters',
  months: 'Monthly trend',
  hs: 'HS breakdown',
  flows: 'Country flows',
  departurePorts: 'Departure ports',
  arrivalPorts: 'Arrival ports',
};
const CHART: Partial<Record<SummaryKind, 'bar' | 'line' | 'tree' | 'sankey'>> = {
  importers: 'bar',
  exporters: 'bar',
  months: 'line',
  hs: 'tree',
  flows: 'sankey',
};

function SummaryTable({
  kind,
  result,
  measure,
}: {
  kind: SummaryKind;
  result: SummaryResult;
  measure: Measure;
}) {
  const firm = kind === 'importers' || kind === 'exporters';
  // Keys of the opened chapters (2 digits) and headings (4 digits); prefixes of different lengths never clash.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  // The HS tree can hold thousands of headings and subheadings: the table lists every chapter, the
  // headings of the chapters the user opens and the subheadings of the opened headings, so no
  // chapter is ever cut off the end. Closing a chapter hides its subheadings too.
  const rows = kind === 'hs' ? result.rows.filter((r) => hsRowShown(r, open)) : result.rows;
  const toggle = (code: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(code)) next.add(code);
      return next;
    });
  return (
    <>
      <div className="analysis__table-wrap">
        <table className="analysis__table" data-testid={`analysis-table-${kind}`}>
          <thead>
            <tr>
              <th>Name</th>
              <th>Shipments</th>
              <th>USD FOB</th>
              <th>USD CIF</th>
              <th>Gross kg</th>
              <th>Share ({MEASURE_LABELS[measure]})</th>
              {firm && <th />}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, MAX_TABLE_ROWS).map((r, i) => (
              <tr
                key={`${r.key ?? 'none'}-${r.level ?? ''}-${i}`}
                data-testid={`analysis-row-${kind}-${i}`}
                data-key={r.key ?? ''}
                className={r.drill ? 'analysis__row--drill' : undefined}
                onClick={() => drillDown(r)}
                title={r.drill ? `Open the shipments: ${r.drill.label}` : 'Cannot be opened as a filter'}
              >
                <td
                  className="analysis__name"
                  style={{ paddingLeft: HS_INDENT[r.level ?? 2] }}
                  data-testid={`analysis-name-${kind}-${i}`}
                  title={nameTitle(r, kind)}
                >
                  {kind === 'hs' && (r.level === 2 || r.level === 4) && r.key !== null && (
                    <button
                      type="button"
                      className="analysis__toggle"
                      data-testid={`analysis-hs-toggle-${r.key}`}
                      aria-expanded={open.has(r.key)}
                      title={hsToggleTitle(r.level, open.has(r.key))}
                      onClick={(e) => {
                        e.stopPropagation();
                        if (r.key) toggle(r.key);
                      }}
                    >
                      {open.has(r.key) ? '▾' : '▸'}
                    </button>
                  )}
                  {r.label}
                  {r.detail && kind !== 'hs' ? <span className="analysis__detail"> {r.detail}</span> : null}
                </td>
                <td>{num(r.shipments)}</td>
                <td
                  title={
                    r.usdFobMissing
                      ? `${count(r.usdFobMissing, 'shipment')} without a usable USD FOB`
                      : undefined
                  }
                >
                  {num(r.usdFob, 2)}
                  {r.usdFobMissing ? '*' : ''}
                </td>
                <td>{num(r.usdCif, 2)}</td>
                <td
                  title={
                    r.grossWeightMissing
                      ? `${count(r.grossWeightMissing, 'shipment')} without a usable weight or unit`
                      : undefined
                  }
                >
                  {num(r.grossWeightKg, 0)}
                  {r.grossWeightMissing ? '*' : ''}
                </td>
                <td>{pct(r.shares[measure])}</td>
                {firm && (
                  <td>
                    <button
                      type="button"
                      className="button"
                      data-testid={`analysis-profile-${kind}-${i}`}
                      disabled={r.key === null}
                      onClick={(e) => {
                        e.stopPropagation();
                        if (r.key) void openProfile(r.key);
                      }}
                    >
                      Profile
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > MAX_TABLE_ROWS && (
        <p className="analysis__note" data-testid={`analysis-table-cut-${kind}`}>
          First {num(MAX_TABLE_ROWS)} of {num(rows.length)} rows shown; the Excel export has them all.
        </p>
      )}
    </>
  );
}

const HS_INDENT: Record<2 | 4 | 6, number> = { 2: 4, 4: 28, 6: 52 };

/** Chapters always; a heading when its chapter is open; a subheading when its heading and chapter are. */
function hsRowShown(r: SummaryRow, open: ReadonlySet<string>): boolean {
  if (r.level === 2) return true;
  const parent = r.parent ?? '';
  if (r.level === 4) return open.has(parent);
  // A subheading's parent is its 4-digit heading, whose first two digits are the chapter.
  return r.level === 6 && open.has(parent) && open.has(parent.slice(0, 2));
}

function hsToggleTitle(level: 2 | 4, isOpen: boolean): string {
  const what = level === 2 ? 'headings' : 'subheadings';
  return `${isOpen ? 'Hide' : 'Show'} the ${what}`;
}

/** Long names are cut with an ellipsis (figure columns stay in view): the tooltip has the whole name. */
function nameTitle(r: SummaryRow, kind: SummaryKind): string {
  return r.detail && kind !== 'hs' ? `${r.label} ${r.detail}` : r.label;
}

function SummarySection({ kind }: { kind: SummaryKind }) {
  const slot = useAnalysisStore((s) => s.summaries[kind]);
  const measure = useAnalysisStore((s) => s.measure);
  const chartRef = useRef<ECharts | null>(null);
  const result = slot?.value ?? null;
  const chart = CHART[kind];
  const option = useMemo(() => {
    if (!result || !chart) return null;
    if (chart === 'bar') return barOption(result, measure);
    if (chart === 'line') return lineOption(result, measure);
    if (chart === 'tree') return treemapOption(result, measure);
    return sankeyOption(result, measure);
  }, [result, chart, measure]);
  // Each bar's middle, in data coordinates (value axis, category index).
  const hitPoints = useMemo(
    () =>
      result && chart === 'bar'
        ? result.rows.map((r, i) => [(measureValue(r, measure) ?? 0) / 2, i] as const)
        : undefined,
    [result, chart, measure],
  );
  const onClick = (e: ChartClick) => {
    if (result && chart) drillDown(rowOfClick(result, chart, e));
  };
  const title = TITLES[kind];
  return (
    <section className="analysis__section" data-testid={`analysis-section-${kind}`}>
      <header className="analysis__section-header">
        <h2>{title}</h2>
        {result && (
          <span className="analysis__note" data-testid={`analysis-total-${kind}`}>
            {count(result.totals.shipments, 'shipment')}
            {result.totals.usdFobMissing
              ? ` · ${num(result.totals.usdFobMissing)} without USD FOB (not counted as 0)`
              : ''}
            {result.omittedGroups ? ` · ${num(result.omittedGroups)} more not shown` : ''}
          </span>
        )}
        <span className="analysis__actions">
          {chart && (
            <button
              type="button"
              className="button"
              data-testid={`analysis-png-${kind}`}
              disabled={!result}
              onClick={() => {
                if (!chartRef.current) return;
                const image = chartImage(chartRef.current);
                download(`${title}.${image.extension}`, image.url);
              }}
            >
              PNG
            </button>
          )}
          <button
            type="button"
            className="button"
            data-testid={`analysis-xlsx-${kind}`}
            disabled={!result}
            onClick={() => void exportSummary(kind, title)}
          >
            Excel
          </button>
        </span>
      </header>
      {slot?.loading && <p data-testid={`analysis-loading-${kind}`}>Computing…</p>}
      {slot?.error && <ErrorMessage error={slot.error} testId={`analysis-error-${kind}`} />}
      {option && (
        <EChart
          option={option}
          onClick={onClick}
          onInstance={(c) => (chartRef.current = c)}
          testId={`analysis-chart-${kind}`}
          hitPoints={hitPoints}
        />
      )}
      {result && <SummaryTable kind={kind} result={result} measure={measure} />}
    </section>
  );
}

function ProfilePanel() {
  const profile = useAnalysisStore((s) => s.profile);
  const p = profile.value;
  const el = useRef<HTMLElement>(null);
  const shown = p !== null || profile.loading || profile.error !== null;
  // The panel opens above the summaries, usually off screen from the row's Profile button: bring it in.
  useEffect(() => {
    if (profile.loading) el.current?.scrollIntoView?.({ block: 'start' });
  }, [profile.loading]);
  if (!shown) return null;
  return (
    <section ref={el} className="analysis__section analysis__profile" data-testid="analysis-profile">
      <header className="analysis__section-header">
        <h2>{p ? `${p.name} (${p.countryCode})` : 'Firm profile'}</h2>
        <span className="analysis__actions">
          <button
            type="button"
            className="button"
            data-testid="analysis-profile-close"
            onClick={closeProfile}
          >
            Close
          </button>
        </span>
      </header>
      {profile.loading && <p>Loading…</p>}
      {profile.error && <ErrorMessage error={profile.error} testId="analysis-profile-error" />}
      {p && (
        <>
          <p data-testid="analysis-profile-summary">
            As importer: {count(p.asImporter.shipments, 'shipment')}, USD FOB {num(p.asImporter.usdFob, 2)} ·
            As exporter: {count(p.asExporter.shipments, 'shipment')}, USD FOB {num(p.asExporter.usdFob, 2)} ·
            First {p.firstShipment ?? '—'}, last {p.lastShipment ?? '—'}
          </p>
          <ProfileList testId="analysis-profile-partners" title="Partners" firm={p.name} rows={p.partners} />
          <ProfileList testId="analysis-profile-hs" title="HS mix (headings)" firm={p.name} rows={p.hsMix} />
          <ProfileList
            testId="analysis-profile-months"
            title="Monthly volume"
            firm={p.name}
            rows={p.monthly}
          />
        </>
      )}
    </section>
  );
}

function ProfileList({
  title,
  firm,
  rows,
  testId,
}: {
  title: string;
  firm: string;
  rows: SummaryRow[];
  testId: string;
}) {
  const datasetName = useAnalysisStore((s) => chosenDataset(s)?.name);
  return (
    <div data-testid={testId}>
      <h3>
        {title}{' '}
        <button
          type="button"
          className="button"
          data-testid={`${testId}-xlsx`}
          // The firm is in the title so the profiles of two firms do not save over each other.
          onClick={() =>
            void exportTable(summaryTable(`${title} ${firm}`.slice(0, 100), rows, { datasetName }))
          }
        >
          Excel
        </button>
      </h3>
      <div className="analysis__table-wrap">
        <table className="analysis__table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Shipments</th>
              <th>USD FOB</th>
              <th>Share (Shipments)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr
                key={`${r.key ?? ''}-${r.detail ?? ''}-${i}`}
                data-testid={`${testId}-${i}`}
                onClick={() => drillDown(r)}
                className={r.drill ? 'analysis__row--drill' : undefined}
              >
                <td className="analysis__name" title={r.detail ? `${r.label} ${r.detail}` : r.label}>
                  {r.label}
                  {r.detail ? <span className="analysis__detail"> {r.detail}</span> : null}
                </td>
                <td>{num(r.shipments)}</td>
                <td>{num(r.usdFob, 2)}</td>
                <td>{pct(r.shares.shipments)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function DiffPanel() {
  const datasets = useAnalysisStore((s) => s.datasets.value) ?? [];
  const datasetId = useAnalysisStore((s) => s.datasetId);
  const diff = useAnalysisStore((s) => s.diff);
  const others = datasets.filter((d) => d.id !== datasetId);
  const nameOf = (id: string | null) => datasets.find((d) => d.id === id)?.name ?? '';
  return (
    <section className="analysis__section" data-testid="analysis-diff">
      <header className="analysis__section-header">
        <h2>Snapshot diff</h2>
        <label>
          Compare with{' '}
          <select
            data-testid="analysis-diff-compare"
            value={diff.compareId ?? ''}
            onChange={(e) => setDiffOptions({ compareId: e.target.value || null })}
          >
            <option value="">(choose a newer dataset)</option>
            {others.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <select
          data-testid="analysis-diff-role"
          value={diff.role}
          onChange={(e) => setDiffOptions({ role: e.target.value === 'exporter' ? 'exporter' : 'importer' })}
        >
          <option value="importer">Importers</option>
          <option value="exporter">Exporters</option>
        </select>
        <span className="analysis__actions">
          <button
            type="button"
            className="button button--primary"
            data-testid="analysis-diff-run"
            disabled={!diff.compareId || diff.loading}
            onClick={() => void runDiff()}
          >
            Compare
          </button>
          <button
            type="button"
            className="button"
            data-testid="analysis-diff-xlsx"
            disabled={!diff.value}
            onClick={() =>
              diff.value &&
              void exportTable(
                diffTable('Snapshot diff', diff.value, {
                  datasetName: `${nameOf(diff.value.baseId)} vs ${nameOf(diff.value.compareId)}`,
                }),
              )
            }
          >
            Excel
          </button>
        </span>
      </header>
      {diff.error && <ErrorMessage error={diff.error} testId="analysis-diff-error" />}
      {diff.value && (
        <>
          <p data-testid="analysis-diff-counts">
            {diff.value.counts.new} new · {diff.value.counts.lost} lost · {diff.value.counts.kept} in both
          </p>
          <div className="analysis__table-wrap">
            <table className="analysis__table" data-testid="analysis-diff-table">
              <thead>
                <tr>
                  <th className="analysis__text">Status</th>
                  <th className="analysis__text">Firm</th>
                  <th>Shipments before → after</th>
                  <th>USD FOB change</th>
                </tr>
              </thead>
              <tbody>
                {diff.value.rows.slice(0, 300).map((r, i) => (
                  <tr key={r.urlCode} data-testid={`analysis-diff-row-${i}`} data-status={r.status}>
                    <td className="analysis__text">{r.status}</td>
                    <td className="analysis__text analysis__name" title={`${r.name} ${r.countryCode}`}>
                      {r.name} <span className="analysis__detail">{r.countryCode}</span>
                    </td>
                    <td>
                      {num(r.shipmentsBefore)} → {num(r.shipmentsAfter)} ({r.shipmentsChange >= 0 ? '+' : ''}
                      {num(r.shipmentsChange)})
                    </td>
                    <td>{num(r.usdFobChange, 2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** Summaries, charts, firm profiles and snapshot diffs of one shipment dataset of the library. */
export function AnalysisPage() {
  const datasets = useAnalysisStore((s) => s.datasets);
  const datasetId = useAnalysisStore((s) => s.datasetId);
  const measure = useAnalysisStore((s) => s.measure);
  const exportError = useAnalysisStore((s) => s.exportError);
  const empty = useAnalysisStore(chosenDatasetIsEmpty);
  useEffect(() => {
    void loadDatasets();
  }, []);
  const list = datasets.value ?? [];
  return (
    <section className="page analysis" data-testid="analysis-page">
      <header className="page__header analysis__header">
        <h1>Analysis</h1>
        <label>
          Dataset{' '}
          <select
            data-testid="analysis-dataset"
            value={datasetId ?? ''}
            onChange={(e) => void selectDataset(e.target.value)}
            disabled={list.length === 0}
          >
            {list.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({count(d.storedRows, 'row')})
              </option>
            ))}
          </select>
        </label>
        <label>
          Measure{' '}
          <select
            data-testid="analysis-measure"
            value={measure}
            onChange={(e) => void setMeasure(e.target.value as Measure)}
          >
            {MEASURES.map((m) => (
              <option key={m} value={m}>
                {MEASURE_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
      </header>
      {datasets.error && <ErrorMessage error={datasets.error} testId="analysis-datasets-error" />}
      {exportError && <ErrorMessage error={exportError} testId="analysis-export-error" />}
      {datasets.value && list.length === 0 && (
        <p className="empty" data-testid="analysis-empty">
          No shipment datasets in the library yet. Run a shipment search first.
        </p>
      )}
      {datasetId && empty && (
        <p className="empty" data-testid="analysis-dataset-empty">
          This dataset has no shipments to analyse. Choose another dataset, or run a search that finds
          shipments.
        </p>
      )}
      {datasetId && !empty && (
        <>
          <p className="analysis__note">
            Sums count only usable numbers; fillers such as “-” or “N/A” are left out and marked with *. Gross
            weight is converted to kg from KG, G, T/MT, LB units; other or blank units are left out.
          </p>
          <ProfilePanel />
          {(
            ['importers', 'exporters', 'months', 'hs', 'flows', 'departurePorts', 'arrivalPorts'] as const
          ).map((k) => (
            <SummarySection key={k} kind={k} />
          ))}
          <DiffPanel />
        </>
      )}
    </section>
  );
}
