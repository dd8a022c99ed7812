import { openSync, closeSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { loadHsHeadings, previewImport, runImport } from '../../src/main/library';
import { unreadableFile } from '../../src/main/library/import/refusal';
import { StreamingWorkbook } from '../../src/main/library/import/xlsx/workbook';
import { useLibrary } from '../helpers/library';
import { storedRows } from './helpers';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-other-');
const l = useLibrary('portolan-import-other-lib-');

const rowsOf = (id: string) => storedRows(l.lib, id);

describe('files as other tools save them', () => {
  it('reads the date-and-time cells US Excel saves to CSV at midnight ("1/13/2025 0:00") as days', async () => {
    const path = join(t.dir, 'us-excel.csv');
    await writeFile(
      path,
      'Consignee,Arrival Date,Value (USD)\r\nAcme,1/13/2025 0:00,10\r\nBeta,2/1/2025 0:00,20\r\n',
    );
    const prepared = await previewImport(path);
    expect(prepared.view.locale.dates).toBe('mdy');
    expect(prepared.view.localeProof.dates).toBe('1/13/2025 0:00');
    expect(prepared.view.columns.find((c) => c.header === 'Arrival Date')?.samples).toEqual([
      '2025-01-13',
      '2025-02-01',
    ]);
    expect(prepared.view.issues).toEqual([]);
    const r = await runImport(l.lib, path, prepared);
    expect(r.warnings).toEqual([]);
    expect((await rowsOf(r.dataset.id)).map((x) => x.arrivalDate)).toEqual(['2025-01-13', '2025-02-01']);
  });
});

describe('a file the system will not read', () => {
  it('says why in the analyst’s words, in the preview and in an import, and leaves the library as it was', async () => {
    // Reading /proc/self/mem from its start fails with EIO, as a drive that went away does.
    const gone = join(t.dir, 'on the network drive.csv');
    await symlink('/proc/self/mem', gone);
    await expect(previewImport(gone)).rejects.toThrow(
      'Cannot import on the network drive.csv: its disk could not be read (a network drive, USB stick or cloud folder that went away, or a damaged disk); copy it to a folder on this computer (such as Documents) and import the copy. The library was not changed.',
    );

    // Previewed while it could be read, unreadable by the time it is imported.
    const path = join(t.dir, 'broker.csv');
    await writeFile(path, 'Consignee,HS Code,Value (USD)\r\nAcme,720810,10\r\n');
    const prepared = await previewImport(path);
    await rm(path);
    await symlink('/proc/self/mem', path);
    await expect(runImport(l.lib, path, prepared)).rejects.toThrow(
      /^Cannot import broker\.csv: its disk could not be read/,
    );
    await rm(path);
    await expect(runImport(l.lib, path, prepared)).rejects.toThrow(
      'Cannot import broker.csv: the file is no longer where it was chosen (it was moved, renamed or deleted); choose it again. The library was not changed.',
    );
    await mkdir(path);
    await expect(runImport(l.lib, path, prepared)).rejects.toThrow(
      /^Cannot import broker\.csv: it is a folder, not a file/,
    );
    expect(await l.lib.list()).toEqual([]);
    // Five workers started one after another: room for a busy machine.
  }, 60_000);

  it.each([
    ['EACCES', /not allowed to read it .*another program holds it locked/],
    ['EPERM', /not allowed to read it/],
    ['EBUSY', /open in another program, perhaps Excel; close it there, then import it again/],
    ['ETIMEDOUT', /network drive did not answer in time/],
  ])('words %s (Windows locks, permissions, network drives) for the analyst', (code, words) => {
    const e = Object.assign(new Error(`${code}: open 'C:\\\\Users\\\\a\\\\x.csv'`), { code });
    expect(unreadableFile(e)?.message).toMatch(words);
    expect(unreadableFile(e)?.message).not.toMatch(/C:|x\.csv|E[A-Z]+/);
  });
});

/**
 * A file the system refuses to open even to root, as a workbook held open in Excel on Windows or one
 * without read permission is refused: a write-only kernel setting (the system's own files are owned by
 * root, so a file of the test's own cannot be made unreadable to it). Null where there is none.
 */
function refusedToRoot(): string | null {
  for (const path of ['/sys/bus/pci/rescan', '/sys/kernel/mm/ksm/run', '/sys/power/wakeup_count']) {
    try {
      closeSync(openSync(path, 'r'));
    } catch (e) {
      if ((e as { code?: unknown }).code === 'EACCES') return path;
    }
  }
  return null;
}

describe('a workbook the system will not read', () => {
  const locked = refusedToRoot();
  const notAllowed =
    'Portolan is not allowed to read it (its permissions deny it, or another program holds it locked); close it in other programs, or copy it to a folder on this computer (such as Documents) and import the copy. The library was not changed.';

  async function entries(): Promise<string> {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Entries').addRows([
      ['Consignee', 'HS Code', 'Value (USD)'],
      ['Acme', '720810', 10],
    ]);
    const path = join(t.dir, 'entries.xlsx');
    await wb.xlsx.writeFile(path);
    return path;
  }

  it.skipIf(locked === null)(
    'gets the refusal a CSV gets, not "damaged", when it may not be read (locked, permissions)',
    async () => {
      const xlsx = join(t.dir, 'held open in Excel.xlsx');
      const csv = join(t.dir, 'held open in Excel.csv');
      await symlink(locked!, xlsx);
      await symlink(locked!, csv);
      await expect(previewImport(csv)).rejects.toThrow(`Cannot import held open in Excel.csv: ${notAllowed}`);
      await expect(previewImport(xlsx)).rejects.toThrow(
        `Cannot import held open in Excel.xlsx: ${notAllowed}`,
      );

      // Previewed while it could be read, locked by the time it is imported.
      const path = await entries();
      const prepared = await previewImport(path);
      await rm(path);
      await symlink(locked!, path);
      await expect(runImport(l.lib, path, prepared)).rejects.toThrow(
        `Cannot import entries.xlsx: ${notAllowed}`,
      );
      expect(await l.lib.list()).toEqual([]);
    },
    60_000,
  );

  it('says it was moved or deleted, or is a folder, after it was chosen', async () => {
    const path = await entries();
    const prepared = await previewImport(path);
    await rm(path);
    await expect(runImport(l.lib, path, prepared)).rejects.toThrow(
      'Cannot import entries.xlsx: the file is no longer where it was chosen (it was moved, renamed or deleted); choose it again. The library was not changed.',
    );
    await mkdir(path);
    await expect(runImport(l.lib, path, prepared)).rejects.toThrow(
      /^Cannot import entries\.xlsx: it is a folder, not a file/,
    );
    expect(await l.lib.list()).toEqual([]);
  }, 60_000);

  it('passes the system’s error on with its code, where it came instead of the workbook', async () => {
    const limits = { maxUncompressedBytes: 1e9, maxCells: 1e6, maxSharedChars: 1e8 };
    await expect(StreamingWorkbook.open(join(t.dir, 'gone.xlsx'), limits)).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await mkdir(join(t.dir, 'folder.xlsx'));
    await expect(StreamingWorkbook.open(join(t.dir, 'folder.xlsx'), limits)).rejects.toMatchObject({
      code: 'EISDIR',
    });
    if (locked)
      await expect(StreamingWorkbook.open(locked, limits)).rejects.toMatchObject({ code: 'EACCES' });
    // A file that is no zip at all is still the workbook's refusal, not the system's.
    await writeFile(join(t.dir, 'text.xlsx'), 'Consignee,Value\r\nAcme,10\r\n');
    await expect(StreamingWorkbook.open(join(t.dir, 'text.xlsx'), limits)).rejects.toMatchObject({
      name: 'WorkbookRefusal',
      reason: 'damaged',
    });
  });
});

describe('HS codes a spreadsheet kept as numbers', () => {
  const headings = loadHsHeadings(join(process.cwd(), 'resources', 'data', 'hs-codes.csv'));

  /** A customs broker's workbook: its HS codes typed into cells Excel keeps as numbers. */
  async function brokerWorkbook(): Promise<string> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Entries');
    ws.addRow(['Consignee', 'HS Code', 'Value (USD)']);
    ws.addRow(['Fish fillets (HS6)', 30490, 10]);
    ws.addRow(['Fish fillets (HS8)', 3049900, 11]);
    ws.addRow(['Fish fillets (US HTS, 10 digits)', 304990000, 12]);
    ws.addRow(['Computers (a 9-digit national code)', 847130000, 13]);
    ws.addRow(['Steel, no zero to lose', 720810, 14]);
    // Shown as 030490 by a format of zeros: stored as shown, nothing to say.
    ws.addRow(['Fish fillets, formatted', 30490, 15]);
    ws.getCell('B7').numFmt = '000000';
    // Text that kept its zero, and a 9-digit code that starts with it.
    ws.addRow(['Fish fillets as text', '030490', 16]);
    ws.addRow(['Fish (a 9-digit national code)', '030490100', 17]);
    const path = join(t.dir, 'broker entries.xlsx');
    await wb.xlsx.writeFile(path);
    return path;
  }

  it('stores them with the leading zero they lost, as the preview shows, and says so', async () => {
    const path = await brokerWorkbook();
    const prepared = await previewImport(path, { hsHeadings: await headings });
    const stored = [
      '030490',
      '03049900',
      '0304990000',
      '847130000',
      '720810',
      '030490',
      '030490',
      '030490100',
    ];
    // The preview's first five values.
    expect(prepared.view.columns.find((c) => c.header === 'HS Code')?.samples).toEqual(stored.slice(0, 5));
    const restored =
      'HS Code: 3 codes lost their leading zero in a spreadsheet (first: sheet Entries, row 2, "30490"). They are stored with it (030490), as the service writes HS codes, so HS code filters and the HS breakdown find them under their chapter';
    // The 9-digit code of chapter 84 is no heading with a zero before it: kept, and pointed out.
    const odd = /^HS Code: 1 code has an odd number of digits \(first: sheet Entries, row 5, "847130000"\)/;
    expect(prepared.view.issues.map((i) => i.message)).toEqual([
      restored.replace('sheet Entries, ', ''),
      expect.stringMatching(odd.source.replace('sheet Entries, ', '')),
    ]);
    const r = await runImport(l.lib, path, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => x.hsCode)).toEqual(stored);
    expect(r.warnings.map((w) => w.message)).toEqual([restored, expect.stringMatching(odd)]);
    expect(r.warnings[0]).toMatchObject({
      count: 3,
      at: ['sheet Entries, row 2', 'sheet Entries, row 3', 'sheet Entries, row 4'],
    });
  });

  it('without the HS headings at hand, restores only 5 and 7 digits, which no code has', async () => {
    const path = await brokerWorkbook();
    const r = await runImport(l.lib, path, await previewImport(path));
    expect((await rowsOf(r.dataset.id)).map((x) => x.hsCode).slice(0, 4)).toEqual([
      '030490',
      '03049900',
      '304990000',
      '847130000',
    ]);
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(
      /2 codes lost their leading zero.*\n.*2 codes have an odd number of digits/,
    );
  });

  it('restores a heading that lost its zero in a plain CSV, as the preview shows it', async () => {
    const path = join(t.dir, 'headings.csv');
    await writeFile(path, 'Consignee,HS Code,Value (USD)\nAcme,304,1\nBeta,7208,2\nGamma,0304,3\n');
    const prepared = await previewImport(path, { hsHeadings: await headings });
    expect(prepared.view.columns[1]?.samples).toEqual(['0304', '7208', '0304']);
    const r = await runImport(l.lib, path, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => x.hsCode)).toEqual(['0304', '7208', '0304']);
    expect(r.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /^HS Code: 1 code lost its leading zero in a spreadsheet \(first: row 2, "304"\)\. It is stored with it \(0304\)/,
      ),
    ]);
  });
});

describe('numbers grouped with dots, as continental European Excel writes them', () => {
  it('reads "25.000" in a semicolon-separated CSV as twenty-five thousand, and stores exactly that', async () => {
    // Excel saves CSV with semicolons where the decimal separator is a comma (Germany, France, …).
    const path = join(t.dir, 'zoll.csv');
    await writeFile(
      path,
      'Consignee;HS Code;Value (USD);Qty\r\nMüller;720810;1.234;25.000\r\nSchmidt;720811;12.500;3\r\n',
    );
    const prepared = await previewImport(path);
    expect(prepared.view.locale.decimal).toBe(',');
    expect(prepared.view.notices).toEqual([]);
    const r = await runImport(l.lib, path, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.usdFob, x.quantity])).toEqual([
      ['1234', '25000'],
      ['12500', '3'],
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('reads "1.234.567" as a number grouped with dots in any file', async () => {
    const path = join(t.dir, 'grouped.csv');
    await writeFile(path, 'Consignee,Value (USD)\nAcme,1.234.567\nBeta,12\n');
    const prepared = await previewImport(path);
    expect(prepared.view.locale.decimal).toBe(',');
    expect(prepared.view.localeProof.decimal).toBe('1.234.567');
    expect(prepared.view.columns[1]?.samples).toEqual(['1234567', '12']);
  });

  it('says, where nothing in the file tells, that "25.000" is read with a decimal point and how to read it otherwise', async () => {
    const path = join(t.dir, 'unclear.csv');
    await writeFile(path, 'Consignee,Value (USD),Qty\nAcme,25.000,3\nBeta,12,4\n');
    const prepared = await previewImport(path);
    expect(prepared.view.locale.decimal).toBe('.');
    expect(prepared.view.notices).toEqual([
      'Numbers such as “25.000” are read with a decimal point (25). If the dot groups thousands (25000), choose 1.234,56 under “Numbers are written”.',
    ]);
    // Chosen: no more doubt to point out.
    const chosen = await previewImport(path, { choices: { locale: { decimal: ',', dates: 'mdy' } } });
    expect(chosen.view.notices).toEqual([]);
    expect(chosen.view.columns[1]?.samples).toEqual(['25000', '12']);
    // A value that proves the decimal point leaves nothing in doubt.
    const proved = join(t.dir, 'proved.csv');
    await writeFile(proved, 'Consignee,Value (USD),Qty\nAcme,25.000,3\nBeta,12.5,4\n');
    expect((await previewImport(proved)).view.notices).toEqual([]);
  });
});

describe('a huge cell', () => {
  it('is shown cut short in the preview, and stored whole', async () => {
    const description = `${'Frozen fillets of Atlantic cod, '.repeat(40_000)}🐟`;
    const path = join(t.dir, 'huge cell.csv');
    await writeFile(
      path,
      `Consignee,Product Description,Notes\nAcme,"${description}","${description}"\nBeta,Cod,short\n`,
    );
    const prepared = await previewImport(path);
    const [, product, notes] = prepared.view.columns;
    expect(product?.field).toBe('productDetails');
    expect(product?.samples).toEqual([`${description.slice(0, 200)}…`, 'Cod']);
    // An extra column's values too.
    expect(notes?.samples).toEqual([`${description.slice(0, 200)}…`, 'short']);
    const r = await runImport(l.lib, path, prepared);
    const rows = await rowsOf(r.dataset.id);
    expect(rows[0]?.productDetails).toBe(description);
    expect(rows[0]?.Notes).toBe(description);
  });
});

describe('timestamps in a date column', () => {
  it('keeps the day of each, says the time was left out, and keeps a time in another zone as written', async () => {
    const path = join(t.dir, 'erp export.csv');
    await writeFile(
      path,
      [
        'Consignee,Arrival Date,Value (USD)',
        'Acme,2025-01-05 14:30:00,1',
        'Beta,13/01/2025 09:15,2',
        'Gamma,2025-01-07T23:59:59.123Z,3',
        'Delta,14/01/2025 00:00,4',
        'Epsilon,2025-01-08T23:30:00+02:00,5',
      ].join('\r\n'),
    );
    const prepared = await previewImport(path);
    // "13/01/2025 09:15" proves day-first as "13/01/2025" would.
    expect(prepared.view.locale.dates).toBe('dmy');
    expect(prepared.view.localeProof.dates).toBe('13/01/2025 09:15');
    const days = ['2025-01-05', '2025-01-13', '2025-01-07', '2025-01-14', '2025-01-08T23:30:00+02:00'];
    expect(prepared.view.columns[1]?.samples).toEqual(days);
    const r = await runImport(l.lib, path, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => x.arrivalDate)).toEqual(days);
    expect(r.warnings.map((w) => w.message)).toEqual([
      // In another zone the day written may not be the day at UTC: kept as written, and said so.
      'Arrival Date: 1 value is not a date written as yyyy-MM-dd (first: row 6, "2025-01-08T23:30:00+02:00"). It is imported as text: it sorts last and is left out by date filters',
      'Arrival Date: 3 values have a time of day after the date (first: row 2, "2025-01-05 14:30:00"). The day is kept (2025-01-05) and the time left out, as Arrival Date holds days',
    ]);
  });
});

describe('negative amounts with the minus after them, as SAP and other accounting systems write them', () => {
  it('stores "1234-" and "1.234,50-" as negative numbers, as the preview shows, and says so', async () => {
    const path = join(t.dir, 'sap credit notes.csv');
    await writeFile(
      path,
      'Importer Name;HS Code;Value (USD)\r\nAcme;720810;1.234,50-\r\nBeta;720811;99,00\r\nGamma;720812;12-\r\n',
    );
    const prepared = await previewImport(path);
    expect(prepared.view.locale.decimal).toBe(',');
    expect(prepared.view.columns.find((c) => c.header === 'Value (USD)')?.samples).toEqual([
      '-1234.50',
      '99.00',
      '-12',
    ]);
    const said =
      'USD FOB: 2 values are written with the minus after the number (first: row 2, "1.234,50-"), as accounting systems such as SAP write negative amounts. They are stored as negative numbers (-1234.50)';
    expect(prepared.view.issues.map((i) => i.message)).toEqual([said]);
    const r = await runImport(l.lib, path, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => x.usdFob)).toEqual(['-1234.50', '99.00', '-12']);
    expect(r.warnings.map((w) => w.message)).toEqual([said]);
  });

  it('reads "USD 1,234.50-" in a workbook as well; a minus on both sides stays text', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Credits').addRows([
      ['Importer Name', 'HS Code', 'Value (USD)'],
      ['Acme', '720810', 'USD 1,234.50-'],
      ['Beta', '720811', '-5-'],
    ]);
    const path = join(t.dir, 'credits.xlsx');
    await wb.xlsx.writeFile(path);
    const r = await runImport(l.lib, path, await previewImport(path));
    expect((await rowsOf(r.dataset.id)).map((x) => x.usdFob)).toEqual(['-1,234.50', '-5-']);
    expect(r.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^USD FOB: 1 value is not a plain number \(first: sheet Credits, row 3, "-5-"\)/),
      expect.stringMatching(/^USD FOB: 1 value is written with the minus after the number/),
      expect.stringMatching(/^USD FOB: 1 value is written with a currency sign/),
    ]);
  });
});

describe('country names where the field holds ISO codes', () => {
  it('stores the code of a country written by name or as a three-letter code, and says what it did', async () => {
    const path = join(t.dir, 'customs portal.csv');
    await writeFile(
      path,
      [
        'Importer Name,HS Code,Value (USD),Country of Origin,Importer Country',
        'Acme,720810,10,Germany,Germany',
        'Beta,720811,20,"Korea, Republic of",Korea',
        'Gamma,720812,30,USA,United States',
        'Delta,720813,40,Türkiye,Türkiye',
        'Epsilon,720814,50,DE,Germany',
        'Zeta,720815,60,Atlantis,Atlantis',
        'Eta,720816,70,,',
        '',
      ].join('\r\n'),
    );
    const prepared = await previewImport(path);
    expect(prepared.view.columns.find((c) => c.header === 'Country of Origin')).toMatchObject({
      field: 'countryOfOrigin',
      samples: ['DE', 'KR', 'US', 'TR', 'DE'],
    });
    const said = [
      'Country of Origin: 4 values are country names or three-letter codes, not the two-letter ISO codes the field holds (first: row 2, "Germany"). They are stored as their codes (DE), so country filters and breakdowns find them',
      'Country of Origin: 1 value is no country Portolan knows (first: row 7, "Atlantis"). It is stored as written: country filters and breakdowns do not find it',
    ];
    expect(prepared.view.issues.map((i) => i.message)).toEqual(said);
    const r = await runImport(l.lib, path, prepared);
    const rows = await rowsOf(r.dataset.id);
    expect(rows.map((x) => x.countryOfOrigin)).toEqual(['DE', 'KR', 'US', 'TR', 'DE', 'Atlantis', '']);
    // A field of country names keeps them as written.
    expect(rows.map((x) => x.importerCountry)).toEqual([
      'Germany',
      'Korea',
      'United States',
      'Türkiye',
      'Germany',
      'Atlantis',
      '',
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual(said);
  });
});

describe('country names as Spanish, Portuguese, French, German and Turkish customs data write them', () => {
  // Each language's headers, then its countries written as its customs data do: with and without
  // accents, in any case, with the codes each one is stored as.
  const languages: [string, string[], [string, string][]][] = [
    [
      'Spanish',
      ['Fecha', 'Importador', 'Partida arancelaria', 'Cantidad', 'País de origen'],
      [
        ['Alemania', 'DE'],
        ['ESTADOS UNIDOS', 'US'],
        ['Turquía', 'TR'],
        ['turquia', 'TR'],
        ['Japon', 'JP'],
      ],
    ],
    [
      'Portuguese',
      ['Data de chegada', 'Importador', 'NCM', 'Quantidade', 'País de origem'],
      [
        ['Alemanha', 'DE'],
        ['Estados Unidos da América', 'US'],
        ['TURQUIA', 'TR'],
        ['Japão', 'JP'],
        ['espanha', 'ES'],
        // The package's Portuguese names of the two Congos are swapped.
        ['República Democrática do Congo', 'CD'],
        ['Republica Popular do Congo', 'CG'],
      ],
    ],
    [
      'French',
      ["Date d'arrivée", 'Importateur', 'Code SH', 'Quantité', "Pays d'origine"],
      [
        ['Allemagne', 'DE'],
        ["Etats-Unis d'Amerique", 'US'],
        ['TURQUIE', 'TR'],
        ["Côte-d'Ivoire", 'CI'],
        ['royaume uni', 'GB'],
      ],
    ],
    [
      'German',
      ['Datum', 'Importeur', 'Warennummer', 'Menge', 'Ursprungsland'],
      [
        ['Deutschland', 'DE'],
        ['Vereinigte Staaten', 'US'],
        ['Türkei', 'TR'],
        ['GROSSBRITANNIEN', 'GB'],
        ['osterreich', 'AT'],
      ],
    ],
    [
      'Turkish',
      ['Tarih', 'İthalatçı Firma', 'GTİP', 'Miktar', 'Menşe Ülke'],
      [
        ['Almanya', 'DE'],
        ['Amerika Birleşik Devletleri', 'US'],
        ['Türkiye', 'TR'],
        ['ÇİN', 'CN'],
        ['Birlesik Krallik', 'GB'],
      ],
    ],
  ];

  it.each(languages)(
    'stores the codes of countries named in %s, from a CSV and from a workbook',
    async (language, headers, countries) => {
      const rows = countries.map(([name], i) => [
        '05.01.2025',
        `Firma ${i + 1}`,
        '720810',
        String(12 + i),
        name,
      ]);
      const csv = join(t.dir, `${language}.csv`);
      await writeFile(csv, [headers, ...rows].map((r) => r.join(';')).join('\r\n') + '\r\n');
      const wb = new ExcelJS.Workbook();
      wb.addWorksheet('Datos').addRows([headers, ...rows]);
      const xlsx = join(t.dir, `${language}.xlsx`);
      await wb.xlsx.writeFile(xlsx);

      const codes = countries.map(([, code]) => code);
      // The import names the sheet of a row, the preview (of one sheet) does not.
      for (const [path, sheet] of [
        [csv, ''],
        [xlsx, 'sheet Datos, '],
      ] as const) {
        const prepared = await previewImport(path);
        expect(prepared.plan.mapping[4], path).toBe('countryOfOrigin');
        // The preview shows the first five values of a column.
        expect(prepared.view.columns[4]?.samples, path).toEqual(codes.slice(0, 5));
        const said = (at: string): string =>
          `Country of Origin: ${countries.length} values are country names or three-letter codes, not the two-letter ISO codes the field holds (first: ${at}row 2, "${countries[0]![0]}"). They are stored as their codes (${codes[0]}), so country filters and breakdowns find them`;
        expect(
          prepared.view.issues.map((i) => i.message),
          path,
        ).toEqual([said('')]);
        const r = await runImport(l.lib, path, prepared);
        expect(
          (await rowsOf(r.dataset.id)).map((x) => x.countryOfOrigin),
          path,
        ).toEqual(codes);
        expect(
          r.warnings.map((w) => w.message),
          path,
        ).toEqual([said(sheet)]);
      }
    },
  );

  it("stores the parties' country codes of names as well", async () => {
    const path = join(t.dir, 'zoll parteien.csv');
    await writeFile(
      path,
      'Datum;Importeur;Importer Country Code;Exporteur;Exporter Country Code\r\n' +
        '05.01.2025;Acme GmbH;Deutschland;Beta Ltd;Vereinigte Staaten\r\n' +
        '06.01.2025;Gamma AŞ;türkei;Delta SA;Frankreich\r\n',
    );
    const r = await runImport(l.lib, path, await previewImport(path));
    const rows = await rowsOf(r.dataset.id);
    expect(rows.map((x) => [x.importerCountryCode, x.exporterCountryCode])).toEqual([
      ['DE', 'US'],
      ['TR', 'FR'],
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /^Importer Country Code: 2 values are country names .* stored as their codes \(DE\)/,
      ),
      expect.stringMatching(
        /^Exporter Country Code: 2 values are country names .* stored as their codes \(US\)/,
      ),
    ]);
  });

  it('keeps a name that means more than one country as written and says which it could be', async () => {
    const headers = ['Data de chegada', 'Importador', 'NCM', 'Quantidade', 'País de origem'];
    const rows = [
      // Congo in English is either Congo; São Martinho in Portuguese is either half of the island.
      ['05.01.2025', 'Acme', '720810', '1', 'Congo'],
      ['06.01.2025', 'Beta', '720811', '2', 'São Martinho'],
      ['07.01.2025', 'Gama', '720812', '3', 'congo'],
      ['08.01.2025', 'Delta', '720813', '4', 'Alemanha'],
    ];
    const said = [
      'Country of Origin: 1 value is a country name or three-letter code, not the two-letter ISO codes the field holds (first: row 5, "Alemanha"). It is stored as its code (DE), so country filters and breakdowns find it',
      'Country of Origin: 3 values name more than one country (first: row 2, "Congo", which could be CG or CD). They are stored as written: country filters and breakdowns do not find them; write the two-letter code in the file to say which',
    ];
    const csv = join(t.dir, 'two congos.csv');
    await writeFile(csv, [headers, ...rows].map((r) => r.join(';')).join('\r\n') + '\r\n');
    const prepared = await previewImport(csv);
    expect(prepared.view.issues.map((i) => i.message)).toEqual(said);
    const r = await runImport(l.lib, csv, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => x.countryOfOrigin)).toEqual([
      'Congo',
      'São Martinho',
      'congo',
      'DE',
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual(said);

    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Dados').addRows([headers, ...rows]);
    const xlsx = join(t.dir, 'two congos.xlsx');
    await wb.xlsx.writeFile(xlsx);
    const fromSheet = await runImport(l.lib, xlsx, await previewImport(xlsx));
    expect((await rowsOf(fromSheet.dataset.id)).map((x) => x.countryOfOrigin)).toEqual([
      'Congo',
      'São Martinho',
      'congo',
      'DE',
    ]);
    expect(fromSheet.warnings.map((w) => w.message)).toEqual(
      said.map((m) => m.replace('first: row', 'first: sheet Dados, row')),
    );
  });
});

describe('a sheet with rows hidden by its filter', () => {
  it('imports the hidden rows with the others, and says so, in the preview and the import', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Entries');
    ws.addRows([
      ['Importer Name', 'HS Code', 'Value (USD)'],
      ['Acme', '720810', 10],
      ['Beta', '720811', 20],
      ['Gamma', '720812', 30],
      ['Delta', '720813', 40],
    ]);
    // Filtered on HS Code in Excel: the rows not shown are hidden.
    ws.autoFilter = 'A1:C5';
    ws.getRow(3).hidden = true;
    ws.getRow(5).hidden = true;
    const path = join(t.dir, 'filtered entries.xlsx');
    await wb.xlsx.writeFile(path);
    const said = (where: string) =>
      `2 rows are hidden in the sheet, by its filter or by hand (first: ${where}row 3). They are imported with the rows shown; to import only those, copy the rows shown to a new sheet in Excel and import that`;
    const prepared = await previewImport(path);
    expect(prepared.view.issues.map((i) => i.message)).toEqual([said('')]);
    const r = await runImport(l.lib, path, prepared);
    expect(r.rows).toBe(4);
    expect(r.warnings.map((w) => w.message)).toEqual([said('sheet Entries, ')]);
    expect(r.warnings[0]?.at).toEqual(['sheet Entries, row 3', 'sheet Entries, row 5']);
  });
});

describe('weights and quantities written with their unit', () => {
  it('stores "1,200 kg" as 1200 with its unit in the unit field when the file has no unit column, and says so', async () => {
    const path = join(t.dir, 'packing list.csv');
    await writeFile(
      path,
      'Importer Name,HS Code,Gross Weight,Quantity\r\nAcme,720810,"1,200 kg",40 pcs\r\nBeta,720811,800 KG,12\r\nGamma,720812,75.5,3 cartons\r\n',
    );
    const prepared = await previewImport(path);
    expect(prepared.view.columns.find((c) => c.header === 'Gross Weight')?.samples).toEqual([
      '1,200',
      '800',
      '75.5',
    ]);
    const said = [
      'Gross Weight: 2 values are written with their unit (first: row 2, "1,200 kg"). They are stored as numbers (1,200), the unit in Gross Weight Unit',
      'Quantity: 2 values are written with their unit (first: row 2, "40 pcs"). They are stored as numbers (40), the unit in Quantity Unit',
    ];
    expect(prepared.view.issues.map((i) => i.message)).toEqual(said);
    const r = await runImport(l.lib, path, prepared);
    const rows = await rowsOf(r.dataset.id);
    expect(rows.map((x) => [x.grossWeight, x.grossWeightUnit, x.quantity, x.quantityUnit])).toEqual([
      ['1,200', 'kg', '40', 'pcs'],
      ['800', 'KG', '12', ''],
      ['75.5', '', '3', 'cartons'],
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual(said);
  });
});

describe('numbers grouped with spaces or apostrophes', () => {
  it('reads "1 234.50" and the Swiss "1\'000" as numbers, as the preview shows', async () => {
    const path = join(t.dir, 'spaced.csv');
    await writeFile(
      path,
      "Consignee,Value (USD),Qty\nAcme,1 234.50,1'000\nBeta,3.25,2\nGamma,\u00a012\u00a0500.5,-1 000\n",
    );
    const prepared = await previewImport(path);
    expect(prepared.view.locale.decimal).toBe('.');
    expect(prepared.view.columns[1]?.samples).toEqual(['1234.50', '3.25', '12500.5']);
    expect(prepared.view.columns[2]?.samples).toEqual(['1000', '2', '-1000']);
    const r = await runImport(l.lib, path, prepared);
    expect(r.warnings).toEqual([]);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.usdFob, x.quantity])).toEqual([
      ['1234.50', '1000'],
      ['3.25', '2'],
      ['12500.5', '-1000'],
    ]);
  });
});

describe('headers as other trade-data tools write them', () => {
  it('maps US bill-of-lading and European declaration words to the fields', async () => {
    const path = join(t.dir, 'bol export.csv');
    await writeFile(
      path,
      [
        'Consignee Name,Consignee Country,Carrier Name,Port of Unlading,Date of Import,Net Mass (kg),Quantity Units,Unit Price (USD),US$ FOB,Master BOL',
        'Acme,US,Maersk,Newark,2025-01-05,1200,KG,2.5,3000,MAEU123',
      ].join('\n'),
    );
    const prepared = await previewImport(path);
    expect(prepared.view.columns.map((c) => [c.header, c.field])).toEqual([
      ['Consignee Name', 'importerName'],
      ['Consignee Country', 'importerCountry'],
      ['Carrier Name', 'transportCompany'],
      ['Port of Unlading', 'portOfArrival'],
      ['Date of Import', 'arrivalDate'],
      ['Net Mass (kg)', 'netWeight'],
      ['Quantity Units', 'quantityUnit'],
      ['Unit Price (USD)', 'unitPrice'],
      ['US$ FOB', 'usdFob'],
      // A master or a house bill of lading: which one the field holds, the analyst says.
      ['Master BOL', null],
    ]);
  });
});
