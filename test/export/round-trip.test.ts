import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fieldTitleOf } from '@shared/fields';
import { QUERY_KEYS } from '@shared/export/query-sheet-keys';
import { SHIPMENT_FIELDS } from '@shared/spec/records';
import { createMemorySource, exportCsv, exportXlsx, shipmentColumns } from '../../src/main/export';
import { importFile } from '../../src/main/library';
import { sampleQuery } from '../helpers/export-fixtures';
import { useLibrary } from '../helpers/library';
import { useTempDir } from '../helpers/temp-dir';
import { simulatorRecords } from './simulator-records';

const run = promisify(execFile);
const t = useTempDir('portolan-round-trip-');
const l = useLibrary('portolan-round-trip-lib-');
/** Debian's python3 with its openpyxl package (python3-openpyxl), not whatever python is first on PATH. */
const PYTHON = '/usr/bin/python3';
const READER = join(import.meta.dirname, 'readers', 'xlsx_cells.py');

/** The simulator's data these tests read. */
const SEED = 11;

type Rec = Record<string, string>;

/** Values a spreadsheet round trip tends to change, on top of simulator records. */
function tricky(base: Rec): Rec[] {
  const cases: Partial<Rec>[] = [
    { usdFob: '1,234.50', usdCif: '-1,234,567.5', createdAt: '1714567890', updatedAt: '1714567890.5' },
    { usdFob: '0.10', usdCif: '1e3', createdAt: '1714567890.123456', arrivalDate: '2024-02-29' },
    { usdFob: '007', usdCif: '12345678901234567', arrivalDate: ' 2024-01-05', quantity: '-0' },
    { usdFob: 'N/A', usdCif: '-', arrivalDate: '2023-02-30', createdAt: '-', updatedAt: '' },
    { importerName: '=1+2', productDetails: 'line1\r\nline2 <&> "quoted"', exporterName: '  padded  ' },
    {
      productDetails: 'literal _x0041_ stays',
      importerName: 'İstanbul Şeker Ürünleri A.Ş.',
      grossWeight: '12,345',
    },
  ];
  return cases.map((c) => ({ ...base, ...c }) as Rec);
}

async function readWithOpenpyxl(
  path: string,
): Promise<Record<string, { t: string; text: string; fmt?: string }[][] | unknown[][]>> {
  const { stdout } = await run(PYTHON, [READER, path], { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout) as Record<string, { t: string; text: string; fmt?: string }[][]>;
}

const query = { ...sampleQuery, totalReported: null };

describe('exact round trips', () => {
  it('Excel: openpyxl reads one type per column and every cell’s value equal to the source', async () => {
    const sim = await simulatorRecords(300, SEED);
    const rows = [...sim, ...tricky(sim[0]!)];
    const columns = shipmentColumns();
    const path = join(t.dir, 'typed.xlsx');
    await exportXlsx(createMemorySource({ kind: 'shipments', columns, rows, query }), path);
    const book = await readWithOpenpyxl(path);
    const sheet = book['Shipments'] as { t: string; text: string; fmt?: string }[][];
    expect(sheet[0]!.map((c) => c.text)).toEqual(SHIPMENT_FIELDS.map((f) => fieldTitleOf('shipments', f)));
    const queryRows = new Map((book['Query'] as unknown[][]).map((r) => [r[0], r[1]]));
    expect(JSON.parse(String(queryRows.get(QUERY_KEYS.fieldNames)))).toEqual([...SHIPMENT_FIELDS]);

    const typesByColumn = new Map<string, Set<string>>();
    rows.forEach((rec, r) => {
      columns.forEach((col, c) => {
        const cell = sheet[r + 1]![c] ?? { t: 'empty', text: '' };
        const where = `row ${r + 2} ${col.field}`;
        expect(cell.text, where).toBe(rec[col.field] ?? '');
        if (r < sim.length && cell.t !== 'empty') {
          const set = typesByColumn.get(col.field) ?? new Set<string>();
          set.add(
            cell.t === 'number' ? `number ${/^#,##0/.test(cell.fmt ?? '') ? 'grouped' : cell.fmt}` : cell.t,
          );
          typesByColumn.set(col.field, set);
        }
      });
    });
    // The simulator's values: every epoch a date-time, every date a date, every number a number
    // shown with thousands separators, never a mix with text (fillers like "-" aside).
    const fillerFree = (field: string): string[] =>
      [...(typesByColumn.get(field) ?? [])].filter((x) => x !== 'text');
    expect(typesByColumn.get('createdAt')).toEqual(new Set(['datetime']));
    expect(typesByColumn.get('updatedAt')).toEqual(new Set(['datetime']));
    expect(typesByColumn.get('arrivalDate')).toEqual(new Set(['date']));
    for (const f of ['fobValue', 'usdFob', 'cifValue', 'usdCif', 'unitPrice', 'grossWeight', 'quantity'])
      expect(typesByColumn.get(f), f).toEqual(new Set(['number grouped']));
    expect(fillerFree('netWeight')).toEqual(['number grouped']);
  }, 60_000);

  it('Excel and CSV: importing Portolan’s own export gives back every value of every column', async () => {
    const sim = await simulatorRecords(200, SEED);
    const rows = [...sim, ...tricky(sim[0]!)];
    const columns = shipmentColumns();
    for (const format of ['xlsx', 'csv'] as const) {
      const path = join(t.dir, `back.${format}`);
      const source = createMemorySource({ kind: 'shipments', columns, rows, query });
      if (format === 'xlsx') await exportXlsx(source, path);
      else await exportCsv(source, path);
      const r = await importFile(l.lib, path);
      expect(r.rows, format).toBe(rows.length);
      const back = (await l.lib.getRows(r.dataset.id, { startRow: 0, endRow: 1000 })).rows;
      rows.forEach((rec, i) => {
        for (const f of SHIPMENT_FIELDS)
          expect(back[i]?.[f], `${format} row ${i + 1} ${f}`).toBe(rec[f] ?? '');
      });
      expect(r.dataset.status, format).toBe('complete');
    }
  }, 60_000);

  it('Excel: control characters a cell cannot hold are listed on the Query sheet, and the re-import is partial', async () => {
    const rows = [{ ...(await simulatorRecords(1, SEED))[0]!, importerName: 'Bell\u0007 Ltd' }];
    const path = join(t.dir, 'altered.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows, query }),
      path,
    );
    const book = await readWithOpenpyxl(path);
    const queryRows = new Map((book['Query'] as unknown[][]).map((r) => [r[0], r[1]]));
    expect(String(queryRows.get(QUERY_KEYS.alteredCells))).toMatch(
      /1 cell\(s\) held control characters.*'Shipments'!A2/,
    );
    const r = await importFile(l.lib, path);
    expect(r.dataset.status).toBe('partial');
    expect(r.dataset.notes).toMatch(/lost characters a spreadsheet cannot hold/);
  });
});
