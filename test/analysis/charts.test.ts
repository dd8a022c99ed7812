import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as echarts from 'echarts';
import type { SummaryResult } from '@shared/analysis/analysis-contract';
import {
  barOption,
  hsTree,
  lineOption,
  rowOfClick,
  sankeyOption,
} from '../../src/renderer/src/features/analysis/chart-options';
import { summaryTable } from '../../src/renderer/src/features/analysis/table-export';
import { openFixture, save, simRecords, withGaps, type Fixture } from './fixtures';

// The charts are built from real summaries of simulator data, then checked the way ECharts reads them.
let fx: Fixture;
let hs: SummaryResult;
let flows: SummaryResult;
let importers: SummaryResult;
let months: SummaryResult;

beforeAll(async () => {
  fx = await openFixture();
  const id = await save(fx.library, withGaps(simRecords(1500, 5)), 'charts');
  [hs, flows, importers, months] = await Promise.all([
    fx.analysis.summary(id, 'hs', {}),
    fx.analysis.summary(id, 'flows', { limit: 200 }),
    fx.analysis.summary(id, 'importers', { measure: 'usdFob', limit: 10 }),
    fx.analysis.summary(id, 'months', {}),
  ]);
});
afterAll(async () => {
  await fx.cleanup();
});

describe('chart data', () => {
  it('the HS treemap nests headings in chapters and subheadings in headings, values adding up', () => {
    const tree = hsTree(hs, 'shipments');
    const chapters = hs.rows.filter((r) => r.level === 2 && r.key !== null);
    expect(tree.map((n) => n.name)).toEqual(chapters.map((c) => c.label));
    for (const chapter of tree) {
      const row = hs.rows[chapter.rowIndex]!;
      const headingSum = (chapter.children ?? []).reduce((s, h) => s + h.value, 0);
      // Only codes shorter than 4 digits are not under a heading.
      const shortCodes =
        hs.rows.find((r) => r.level === 4 && r.key === null && r.parent === row.key)?.shipments ?? 0;
      expect(headingSum + shortCodes).toBe(row.shipments);
      for (const heading of chapter.children ?? []) {
        expect(hs.rows[heading.rowIndex]!.parent).toBe(row.key);
        for (const sub of heading.children ?? [])
          expect(hs.rows[sub.rowIndex]!.parent).toBe(hs.rows[heading.rowIndex]!.key);
      }
    }
  });

  it('the sankey has no cycle even when countries trade both ways, and a link click finds its row', () => {
    const option = sankeyOption(flows, 'shipments') as {
      series: { data: { name: string }[]; links: { source: string; target: string; rowIndex: number }[] }[];
    };
    const { data, links } = option.series[0]!;
    const sources = new Set(links.map((l) => l.source));
    const targets = new Set(links.map((l) => l.target));
    // Every edge goes from an exporter-side node to an importer-side node: a bipartite graph has no cycle.
    for (const s of sources) expect(targets.has(s)).toBe(false);
    expect(new Set(data.map((n) => n.name)).size).toBe(data.length);
    const both = flows.rows.some((a) =>
      flows.rows.some((b) => a.from === b.to && a.to === b.from && a.from !== a.to),
    );
    expect(both).toBe(true);
    const link = links[3]!;
    const row = rowOfClick(flows, 'sankey', { dataType: 'edge', dataIndex: 3, data: link });
    expect(row).toBe(flows.rows[link.rowIndex]);
    expect(`from ${row!.from}`).toBe(link.source);
    expect(rowOfClick(flows, 'sankey', { dataType: 'node', dataIndex: 0, data: data[0] })).toBeNull();
  });

  it('the flows chart prints no country label over another, at the size its tab has at 1024×700 and at 1440×900', () => {
    // Forty flows between eighty different countries: the most labels the tab can be given.
    const codes =
      'AE AR AU BE BR CA CH CL CN CO DE DK EG ES FI FR GB GR HK HU ID IE IN IT JP KE KR MA MX MY NG NL NO PE PH PL PT RO RU SA SE SG TH TR TW US VN ZA'.split(
        ' ',
      );
    const rows = Array.from({ length: 40 }, (_, i) => ({
      ...flows.rows[i % flows.rows.length]!,
      from: `${codes[i]!}1`,
      to: `${codes[i]!}2`,
      shipments: 1 + ((i * 37) % 23),
    }));
    const shown = (width: number, height: number) => {
      // ECharts' own layout, drawn as SVG text (the app draws the same layout on a canvas).
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
      chart.setOption(sankeyOption({ ...flows, rows }, 'shipments'));
      const svg = chart.renderToSVGString();
      chart.dispose();
      return [...svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].map((m) => {
        const at = /translate\(([\d.]+) ([\d.]+)\)/.exec(m[1]!)!;
        const size = Number(/font-size:(\d+)px/.exec(m[1]!)![1]);
        return { text: m[2]!, x: Number(at[1]), y: Number(at[2]), size };
      });
    };
    // The tab's chart height is clamp(420px, 64vh, 600px) (summary-section.tsx).
    for (const [width, height] of [
      [930, 448],
      [1150, 576],
    ] as const) {
      const labels = shown(width, height);
      const clashes = labels.flatMap((a, i) =>
        labels
          .slice(i + 1)
          .filter((b) => Math.abs(a.x - b.x) < 2 * a.size && Math.abs(a.y - b.y) < a.size)
          .map((b) => `${a.text}/${b.text}`),
      );
      expect(clashes, `${width}×${height}`).toEqual([]);
      // Most countries keep their label; the others name themselves on hover and in the table.
      expect(labels.length, `${width}×${height}`).toBeGreaterThanOrEqual(height > 500 ? 60 : 45);
    }
  });

  it('bar i is row i, and the export keeps unknown sums empty', () => {
    const option = barOption(importers, 'usdFob') as { series: { data: (number | null)[] }[] };
    expect(option.series[0]!.data).toEqual(importers.rows.map((r) => r.usdFob));
    expect(rowOfClick(importers, 'bar', { dataIndex: 2, data: null })).toBe(importers.rows[2]);
    const table = summaryTable('x', [{ ...importers.rows[0]!, usdFob: null }]);
    expect(table.rows[0]![5]).toBeNull();
    expect(table.rows[0]![3]).toBe(importers.rows[0]!.shipments);
  });

  it('the trend names its months as analysts write them ("Dec 2025"), in calendar order, and a click finds its month', () => {
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const keys = months.rows.map((r) => r.key).filter((k): k is string => k !== null);
    expect(keys.length).toBeGreaterThan(12);
    expect(keys).toEqual([...keys].sort());
    const option = lineOption(months, 'shipments') as { xAxis: { data: string[] } };
    expect(option.xAxis.data).toEqual(
      keys.map((k) => `${MONTHS[Number(k.slice(5, 7)) - 1]} ${k.slice(0, 4)}`),
    );
    expect(option.xAxis.data.some((label) => /\d{4}-\d{2}/.test(label))).toBe(false);
    expect(rowOfClick(months, 'line', { dataIndex: 1, data: null })?.key).toBe(keys[1]);
  });

  it('count axes tick in whole numbers; money and weight axes may have fractions', () => {
    type Axis = { minInterval?: number };
    const bar = (m: 'shipments' | 'usdFob') => (barOption(importers, m) as { xAxis: Axis }).xAxis;
    expect(bar('shipments').minInterval).toBe(1);
    expect(bar('usdFob').minInterval).toBeUndefined();
    const line = lineOption(importers, 'usdFob') as { yAxis: (Axis & { name: string })[] };
    expect(line.yAxis[0]).toMatchObject({ name: 'Shipments', minInterval: 1 });
    expect(line.yAxis[1]!.minInterval).toBeUndefined();
  });

  it('the name column cuts long names with an ellipsis and figure columns do not wrap', () => {
    // jsdom does no layout, so the page test checks the class and tooltip and this checks the rule.
    const css = readFileSync(
      new URL('../../src/renderer/src/features/analysis/analysis.css', import.meta.url),
      'utf8',
    ).replace(/\/\*[\s\S]*?\*\//g, '');
    // Every declaration that applies to exactly this selector, over all rules that list it.
    const rule = (selector: string) =>
      [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)]
        .filter((m) => m[1]!.split(',').some((sel) => sel.trim() === selector))
        .map((m) => m[2])
        .join('\n');
    const name = rule('.analysis__table td.analysis__name');
    for (const decl of ['overflow: hidden', 'text-overflow: ellipsis', 'max-width: 0', 'width: 100%'])
      expect(name).toContain(decl);
    expect(rule('.analysis__table td')).toContain('white-space: nowrap');
    expect(rule('.analysis__table-wrap')).toContain('overflow-x: auto');
  });
});
