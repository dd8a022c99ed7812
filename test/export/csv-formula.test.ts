/**
 * CSV injection: text a spreadsheet would run as a formula is written escaped, numbers, phone numbers
 * and the service's "-" fillers are not, and the app's CSV import gets the exact text back.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemorySource, exportCsv, firmColumns } from '../../src/main/export';
import { neutraliseCsvFormula, restoreCsvFormulaText } from '@shared/csv-formula';
import { parseCsv } from '../helpers/csv-parse';
import { sampleQuery } from '../helpers/export-fixtures';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-csv-formula-test-');
const run = promisify(execFile);
const soffice = ['/usr/bin/libreoffice', '/usr/bin/soffice'].find((p) => existsSync(p));

const DANGEROUS = [
  '=1+2',
  '=HYPERLINK("http://x","click")',
  '@SUM(1,1)',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  '- Other',
  '+A1',
  '\t=1+2',
  '\r=1+2',
];
const LEFT_ALONE = [
  '-5',
  '+3.25',
  '1.5e3',
  '-1.5e3',
  '+44 20 7946 0000',
  '+90 (532) 123-45-67',
  '-',
  '--',
  'Plain',
  "O'Brien",
  "'quoted'",
  '',
];

async function exportFirmNames(names: readonly string[]): Promise<string> {
  const rows = names.map((name, i) => ({
    name,
    country: 'Türkiye',
    country_code: 'TR',
    firm_type: -5,
    shipment_count: i,
  }));
  const out = join(t.dir, 'names.csv');
  await exportCsv(
    createMemorySource({
      kind: 'firms',
      columns: firmColumns(['name', 'firm_type']),
      rows,
      query: sampleQuery,
    }),
    out,
  );
  return out;
}

describe('CSV export and formula injection', () => {
  it('writes formula-like text with a leading quote, in every column', async () => {
    const out = await exportFirmNames(DANGEROUS);
    const table = parseCsv((await readFile(out, 'utf8')).slice(1));
    expect(table.slice(1).map((r) => r[0])).toEqual(DANGEROUS.map((v) => `'${v}`));
  });

  it('leaves numbers, numeric firm counts, phone numbers and "-" fillers as they are', async () => {
    const out = await exportFirmNames(LEFT_ALONE);
    const table = parseCsv((await readFile(out, 'utf8')).slice(1));
    expect(table.slice(1).map((r) => r[0])).toEqual(LEFT_ALONE);
    expect(table.slice(1).every((r) => r[1] === '-5')).toBe(true);
  });

  it('restores exactly what it escaped, whatever the text', () => {
    const lead = fc.constantFrom('=', '+', '-', '@', '\t', '\r', "'", "''", '', '5', ' ');
    const text = fc.tuple(lead, lead, fc.string({ maxLength: 8 })).map(([a, b, c]) => a + b + c);
    fc.assert(
      fc.property(text, (v) => {
        expect(restoreCsvFormulaText(neutraliseCsvFormula(v))).toBe(v);
      }),
      { numRuns: 2000 },
    );
    expect(neutraliseCsvFormula("'=1+2")).toBe("''=1+2");
    expect(restoreCsvFormulaText("''=1+2")).toBe("'=1+2");
  });

  it.skipIf(!soffice)(
    'is shown as text, never evaluated, when LibreOffice opens the file',
    async () => {
      const out = await exportFirmNames(['=1+2', '@SUM(1,1)', '+44 20 7946 0000', '-5']);
      // Opening and saving again as CSV writes each cell as LibreOffice evaluated it.
      await run(
        soffice!,
        [
          '--headless',
          `-env:UserInstallation=file://${join(t.dir, 'lo-profile')}`,
          '--convert-to',
          'csv:Text - txt - csv (StarCalc):44,34,76',
          '--outdir',
          join(t.dir, 'lo'),
          out,
        ],
        {
          timeout: 120_000,
        },
      );
      const seen = parseCsv((await readFile(join(t.dir, 'lo', 'names.csv'), 'utf8')).replace(/^\uFEFF/, ''));
      expect(seen.slice(1, 5).map((r) => r[0])).toEqual(["'=1+2", "'@SUM(1,1)", '+44 20 7946 0000', '-5']);
    },
    150_000,
  );
});
