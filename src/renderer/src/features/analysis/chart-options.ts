import type { EChartsCoreOption } from 'echarts/core';
import type { Measure, SummaryResult, SummaryRow } from '@shared/analysis/analysis-contract';
import { monthName } from '@shared/fields';

export const MEASURE_LABELS: Record<Measure, string> = {
  shipments: 'Shipments',
  usdFob: 'USD FOB',
  usdCif: 'USD CIF',
  grossWeightKg: 'Gross weight (kg)',
};

export function measureValue(row: SummaryRow, m: Measure): number | null {
  return m === 'shipments' ? row.shipments : row[m];
}

/** Counts have no fractions: without this a dataset of one shipment gets ticks 0, 0.2 … 1. */
const COUNT_AXIS = { minInterval: 1 } as const;

const short = (s: string, n = 28) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Horizontal bars, largest on top; bar i is result.rows[i]. */
export function barOption(result: SummaryResult, m: Measure): EChartsCoreOption {
  const rows = result.rows;
  return {
    animation: false,
    tooltip: { trigger: 'item' },
    grid: { left: 180, right: 24, top: 16, bottom: 44 },
    xAxis: {
      type: 'value',
      name: MEASURE_LABELS[m],
      nameLocation: 'middle',
      nameGap: 28,
      ...(m === 'shipments' ? COUNT_AXIS : {}),
    },
    yAxis: { type: 'category', inverse: true, data: rows.map((r) => short(r.label)) },
    series: [{ type: 'bar', name: MEASURE_LABELS[m], data: rows.map((r) => measureValue(r, m)) }],
  };
}

/** Shipments and the chosen value per month; invalid dates are left out of the line. */
export function lineOption(result: SummaryResult, m: Measure): EChartsCoreOption {
  const rows = result.rows.filter((r) => r.key !== null);
  const second: Measure = m === 'shipments' ? 'usdFob' : m;
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 64, right: 64, top: 32, bottom: 32 },
    // The axis and its tooltip name the month as the table does ("Dec 2025"), in the rows' calendar order.
    xAxis: { type: 'category', data: rows.map((r) => monthName(r.key ?? '')) },
    yAxis: [
      { type: 'value', name: 'Shipments', ...COUNT_AXIS },
      { type: 'value', name: MEASURE_LABELS[second] },
    ],
    series: [
      { type: 'line', name: 'Shipments', data: rows.map((r) => r.shipments) },
      {
        type: 'line',
        name: MEASURE_LABELS[second],
        yAxisIndex: 1,
        data: rows.map((r) => measureValue(r, second)),
      },
    ],
  };
}

interface TreeNode {
  name: string;
  value: number;
  /** Index into result.rows, for drill-down. */
  rowIndex: number;
  children?: TreeNode[];
}

/** HS chapter → heading → subheading from the flat rows (which come in tree order). */
export function hsTree(result: SummaryResult, m: Measure): TreeNode[] {
  const chapters: TreeNode[] = [];
  const headings = new Map<string, TreeNode>();
  const byChapter = new Map<string, TreeNode>();
  result.rows.forEach((row, rowIndex) => {
    const value = measureValue(row, m) ?? 0;
    if (value <= 0 || row.key === null) return;
    const node: TreeNode = { name: row.label, value, rowIndex };
    if (row.level === 2) {
      node.children = [];
      chapters.push(node);
      byChapter.set(row.key, node);
    } else if (row.level === 4) {
      node.children = [];
      byChapter.get(row.parent ?? '')?.children?.push(node);
      headings.set(row.key, node);
    } else {
      headings.get(row.parent ?? '')?.children?.push(node);
    }
  });
  return chapters;
}

export function treemapOption(result: SummaryResult, m: Measure): EChartsCoreOption {
  return {
    animation: false,
    tooltip: { trigger: 'item' },
    series: [
      {
        type: 'treemap',
        name: MEASURE_LABELS[m],
        data: hsTree(result, m),
        leafDepth: 1,
        roam: false,
        nodeClick: false,
        breadcrumb: { show: true },
        levels: [{ itemStyle: { gapWidth: 2 } }, { itemStyle: { gapWidth: 1 } }],
      },
    ],
  };
}

/**
 * Exporter countries on the left, importer countries on the right. Nodes are prefixed by side so a
 * country trading both ways does not make a cycle (sankey needs a DAG).
 */
export function sankeyOption(result: SummaryResult, m: Measure): EChartsCoreOption {
  const nodes = new Map<string, { name: string; label: { formatter: string } }>();
  const links: { source: string; target: string; value: number; rowIndex: number }[] = [];
  result.rows.forEach((row, rowIndex) => {
    const value = measureValue(row, m) ?? 0;
    if (value <= 0) return;
    const s = `from ${row.from ?? '?'}`;
    const t = `to ${row.to ?? '?'}`;
    nodes.set(s, { name: s, label: { formatter: row.from ?? '?' } });
    nodes.set(t, { name: t, label: { formatter: row.to ?? '?' } });
    links.push({ source: s, target: t, value, rowIndex });
  });
  return {
    animation: false,
    tooltip: { trigger: 'item' },
    series: [
      {
        type: 'sankey',
        data: [...nodes.values()],
        links,
        emphasis: { focus: 'adjacency' },
        nodeAlign: 'justify',
        // Forty flows give up to forty countries a side: at 1024×700 their labels would print over
        // one another. Smaller gaps give each node more room; a label that still has none is left out
        // (its node names itself on hover, and the table under the chart lists every flow).
        nodeGap: 4,
        label: { fontSize: 11 },
        labelLayout: { hideOverlap: true },
      },
    ],
  };
}

/** The summary row behind a clicked chart element, if any. */
export function rowOfClick(
  result: SummaryResult,
  kind: 'bar' | 'line' | 'tree' | 'sankey',
  e: { dataType?: string; dataIndex: number; data: unknown },
): SummaryRow | null {
  if (kind === 'bar') return result.rows[e.dataIndex] ?? null;
  if (kind === 'line') return result.rows.filter((r) => r.key !== null)[e.dataIndex] ?? null;
  if (kind === 'sankey' && e.dataType !== 'edge') return null;
  const idx = (e.data as { rowIndex?: unknown } | null)?.rowIndex;
  return typeof idx === 'number' ? (result.rows[idx] ?? null) : null;
}
