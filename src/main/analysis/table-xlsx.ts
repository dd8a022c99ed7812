import ExcelJS from 'exceljs';
import type { TableExport, TableExportInput } from '@shared/analysis/analysis-contract';

const NUMBER_FORMAT = {
  integer: '#,##0',
  decimal: '#,##0.00',
  price: '#,##0.00##',
  percent: '0.00%',
} as const;

/** Excel's rule for sheet names: at most 31 characters, none of []:*?/\ . */
export function sheetName(title: string): string {
  return (
    title
      .replace(/[[\]:*?/\\]/g, ' ')
      .trim()
      .slice(0, 31) || 'Summary'
  );
}

const safePart = (s: string, max: number): string =>
  s
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();

/** "Top importers - Spain 2024.xlsx": the dataset in the name keeps exports of two datasets apart. */
export function fileNameFor(title: string, datasetName?: string): string {
  const base = safePart(title, 80) || 'summary';
  const dataset = datasetName ? safePart(datasetName, 80) : '';
  return `${dataset ? `${base} - ${dataset}` : base}.xlsx`;
}

/**
 * One summary table as an .xlsx in memory: styled, frozen header; numbers as numbers. Summaries are
 * small (at most a few thousand rows), so the file travels back over the bridge for the renderer to
 * save, and main needs no save dialog or target path.
 */
export async function tableToXlsx(input: TableExportInput): Promise<TableExport> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Portolan';
  const ws = wb.addWorksheet(sheetName(input.title), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = input.columns.map((c) => ({
    header: c.header,
    width: Math.min(60, Math.max(10, c.header.length + 2)),
    style: c.type === 'text' ? {} : { numFmt: NUMBER_FORMAT[c.type] },
  }));
  const header = ws.getRow(1);
  header.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E78' } };
  for (const row of input.rows) {
    ws.addRow(
      input.columns.map((c, i) => {
        const v = row[i] ?? null;
        // A text column never becomes a formula or a number by accident.
        if (c.type === 'text') return v === null ? null : String(v);
        return typeof v === 'number' ? v : null;
      }),
    );
  }
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: input.columns.length } };
  if (input.note) {
    // After one blank row, so sorting or filtering the table never takes the note in as data.
    const note = ws.getRow(input.rows.length + 3);
    note.getCell(1).value = input.note;
    note.font = { italic: true };
  }
  if (input.datasetName) wb.subject = input.datasetName;
  const buf = await wb.xlsx.writeBuffer();
  return {
    fileName: fileNameFor(input.title, input.datasetName),
    base64: Buffer.from(buf as ArrayBuffer).toString('base64'),
  };
}
