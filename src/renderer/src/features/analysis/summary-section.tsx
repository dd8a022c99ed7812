import { ActionIcon, Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useRef } from 'react';
import type { ECharts } from 'echarts/core';
import type { Measure, SummaryKind, SummaryResult, SummaryRow } from '@shared/analysis/analysis-contract';
import { ErrorMessage } from '../../components/error-message';
import { uncodedFirmNote, useAnalysisStore } from './analysis-store';
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
import { monthName } from '@shared/fields';
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

/**
 * Each chart has its tab to itself and grows with the window, leaving the first rows of its table in
 * view down to 1024×700; the flows chart takes more of it, so 40 flows keep their labels apart.
 */
const CHART_HEIGHT: Record<'bar' | 'line' | 'tree' | 'sankey', string> = {
  bar: 'clamp(300px, 38vh, 400px)',
  line: 'clamp(200px, 34vh, 320px)',
  tree: 'clamp(220px, 38vh, 380px)',
  sankey: 'clamp(420px, 64vh, 600px)',
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
  const { drillDown, openProfile, toggleHs: toggle } = useAnalysisStore.getState();
  const firm = kind === 'importers' || kind === 'exporters';
  // Keys of the opened chapters (2 digits) and headings (4 digits); prefixes of different lengths never clash.
  const hsOpen = useAnalysisStore((s) => s.hsOpen);
  const open = useMemo(() => new Set(hsOpen), [hsOpen]);
  // The HS tree can hold thousands of headings and subheadings: the table lists every chapter, the
  // headings of the chapters the user opens and the subheadings of the opened headings, so no
  // chapter is ever cut off the end. Closing a chapter hides its subheadings too.
  const rows = kind === 'hs' ? result.rows.filter((r) => hsRowShown(r, open)) : result.rows;
  return (
    <>
      <div className="analysis__table-wrap">
        <Table
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
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="xs"
                      mr={4}
                      data-testid={`analysis-hs-toggle-${r.key}`}
                      aria-expanded={open.has(r.key)}
                      aria-label={hsToggleTitle(r.level, open.has(r.key))}
                      title={hsToggleTitle(r.level, open.has(r.key))}
                      onClick={(e) => {
                        e.stopPropagation();
                        if (r.key) toggle(r.key);
                      }}
                    >
                      {open.has(r.key) ? '▾' : '▸'}
                    </ActionIcon>
                  )}
                  {rowName(r, kind)}
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
                    <Button
                      variant="subtle"
                      size="compact-xs"
                      data-testid={`analysis-profile-${kind}-${i}`}
                      disabled={r.key === null}
                      onClick={(e) => {
                        e.stopPropagation();
                        if (r.key) void openProfile(r.key);
                      }}
                    >
                      Profile
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      {rows.length > MAX_TABLE_ROWS && (
        <Text c="dimmed" fz="sm" data-testid={`analysis-table-cut-${kind}`}>
          First {num(MAX_TABLE_ROWS)} of {num(rows.length)} rows shown; the Excel export has them all.
        </Text>
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

/** A row's name on screen: a month as analysts write it ("Dec 2025"), every other row by its label. */
function rowName(r: SummaryRow, kind: SummaryKind): string {
  return kind === 'months' && r.key !== null ? monthName(r.key) : r.label;
}

/** Long names are cut with an ellipsis (figure columns stay in view): the tooltip has the whole name. */
function nameTitle(r: SummaryRow, kind: SummaryKind): string {
  const name = r.detail && kind !== 'hs' ? `${rowName(r, kind)} ${r.detail}` : rowName(r, kind);
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
  const uncoded = uncodedFirmNote(result);
  return (
    <Stack gap="sm" component="section" data-testid={`analysis-section-${kind}`}>
      <Group gap="md" align="baseline" wrap="nowrap">
        <Title order={2} style={{ flexShrink: 0 }}>
          {title}
        </Title>
        {result && (
          <Text c="dimmed" fz="sm" truncate data-testid={`analysis-total-${kind}`}>
            {count(result.totals.shipments, 'shipment')}
            {result.totals.usdFobMissing
              ? ` · ${num(result.totals.usdFobMissing)} without USD FOB (not counted as 0)`
              : ''}
            {result.omittedGroups ? ` · ${num(result.omittedGroups)} more not shown` : ''}
          </Text>
        )}
        <Group gap="xs" ml="auto" wrap="nowrap">
          {chart && (
            <Button
              variant="default"
              size="xs"
              data-testid={`analysis-png-${kind}`}
              disabled={!result}
              title="Save the chart as a PNG image"
              onClick={() => {
                if (!chartRef.current) return;
                const image = chartImage(chartRef.current);
                download(`${title}.${image.extension}`, image.url);
              }}
            >
              PNG
            </Button>
          )}
          <Button
            variant="default"
            size="xs"
            data-testid={`analysis-xlsx-${kind}`}
            disabled={!result}
            title="Save the table, every row of it, as an Excel workbook"
            onClick={() => void exportSummary(kind, title)}
          >
            Excel
          </Button>
        </Group>
      </Group>
      {slot?.loading && (
        <Group gap="xs" data-testid={`analysis-loading-${kind}`}>
          <Loader size="xs" />
          <Text c="dimmed" fz="sm">
            Computing…
          </Text>
        </Group>
      )}
      {slot?.error && <ErrorMessage error={slot.error} testId={`analysis-error-${kind}`} />}
      {uncoded !== null && (
        <Alert color="orange" role="note" data-testid={`analysis-uncoded-${kind}`}>
          <Group gap="md" justify="space-between" wrap="nowrap">
            <Text fz="sm">{uncoded}</Text>
            <Button
              variant="default"
              size="xs"
              style={{ flexShrink: 0 }}
              data-testid={`analysis-uncoded-resolve-${kind}`}
              onClick={() => void useAnalysisStore.getState().setFirms('resolved')}
            >
              Count firms resolved
            </Button>
          </Group>
        </Alert>
      )}
      {option && (
        <EChart
          option={option}
          onClick={onClick}
          onInstance={(c) => (chartRef.current = c)}
          testId={`analysis-chart-${kind}`}
          hitPoints={hitPoints}
          height={CHART_HEIGHT[chart ?? 'bar']}
        />
      )}
      {result && <SummaryTable kind={kind} result={result} measure={measure} />}
    </Stack>
  );
}
