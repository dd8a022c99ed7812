import { useMemo, useRef, useState } from 'react';
import type { ECharts } from 'echarts/core';
import type { Measure, SummaryKind, SummaryResult, SummaryRow } from '@shared/analysis/analysis-contract';
import { ErrorMessage } from '../../components/error-message';
import { useAnalysisStore } from './analysis-store';
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
  const { drillDown, openProfile } = useAnalysisStore.getState();
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
        <table
          className="analysis__table"
          data-testid={`analysis-table-${kind}`}
          data-firms={firm ? result.firms : undefined}
        >
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
                  {r.spellings !== undefined && r.spellings > 1 ? (
                    <span className="analysis__detail" data-testid={`analysis-spellings-${kind}-${i}`}>
                      {' '}
                      · written {count(r.spellings, 'way')}
                    </span>
                  ) : null}
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
  const name = r.detail && kind !== 'hs' ? `${r.label} ${r.detail}` : r.label;
  // A resolved firm's spellings count, also when the cell cuts the name short.
  return r.spellings !== undefined && r.spellings > 1
    ? `${name} · written ${count(r.spellings, 'way')}`
    : name;
}

export function SummarySection({ kind }: { kind: SummaryKind }) {
  const { drillDown, exportSummary } = useAnalysisStore.getState();
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
