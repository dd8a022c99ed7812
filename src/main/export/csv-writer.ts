import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { neutraliseCsvFormula } from '@shared/csv-formula';
import { closeQuietly, throwIfAborted, writeAtomically } from './atomic-file';
import { toText } from './cell-values';
import { throttledProgress } from './progress';
import type { ExportColumn, ExportOptions, ExportResult, ExportRow, ExportSource } from './types';

/** Excel only reads a CSV as UTF-8 when it starts with a byte order mark. */
export const UTF8_BOM = '\uFEFF';
const ROWS_PER_CHUNK = 500;
const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180: a field with a comma, quote or line break is quoted, inner quotes doubled. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly string[]): string {
  return values.map(csvField).join(',') + '\r\n';
}

async function writeChunk(file: WriteStream, chunk: string): Promise<void> {
  if (!file.write(chunk)) await once(file, 'drain');
}

/**
 * Writes the source's original text values as RFC 4180 CSV (UTF-8 with BOM, CRLF line ends), text a
 * spreadsheet would run as a formula escaped with a leading quote (see @shared/csv-formula).
 */
export async function exportCsv(
  source: ExportSource,
  target: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const { signal } = options;
  const columns: readonly ExportColumn[] = source.columns;
  const report = throttledProgress(options.onProgress);

  const { value: rowsWritten, bytes } = await writeAtomically(target, options, async (temp) => {
    const file = createWriteStream(temp, { encoding: 'utf8' });
    const failed = new Promise<never>((_, reject) => file.once('error', reject));
    failed.catch(() => undefined);
    try {
      let rows = 0;
      const header = columns.map((c) => neutraliseCsvFormula(c.header));
      await Promise.race([writeChunk(file, UTF8_BOM + csvLine(header)), failed]);
      for await (const batch of source.batches(signal)) {
        throwIfAborted(signal);
        for (let start = 0; start < batch.length; start += ROWS_PER_CHUNK) {
          let chunk = '';
          const end = Math.min(batch.length, start + ROWS_PER_CHUNK);
          for (let r = start; r < end; r++) {
            const row = batch[r] as ExportRow;
            let line = '';
            for (let i = 0; i < columns.length; i++) {
              if (i > 0) line += ',';
              line += csvField(neutraliseCsvFormula(toText(row[i])));
            }
            chunk += line + '\r\n';
          }
          rows += end - start;
          await Promise.race([writeChunk(file, chunk), failed]);
          await yieldToLoop();
          throwIfAborted(signal);
          report({ phase: 'rows', rowsWritten: rows, rowCount: source.rowCount });
        }
      }
      report({ phase: 'finishing', rowsWritten: rows, rowCount: source.rowCount }, true);
      file.end();
      await finished(file);
      return rows;
    } catch (err) {
      await closeQuietly(file);
      throw err;
    }
  });
  return { path: target, rowsWritten, bytes };
}
