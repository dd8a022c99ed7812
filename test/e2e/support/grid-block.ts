import { expect } from 'vitest';
import { parseDecimalText } from '@shared/fields';
import type { AgGrid } from '../pages/ag-grid';
import type { Browser } from './browser';
import type { Stack } from './stack';

/** The groups of a shipments grid's columns, in their order (Record's shown once a column of it is). */
export const SHIPMENT_COLUMN_GROUPS = [
  'Importer',
  'Exporter',
  'Goods',
  'Values',
  'Logistics',
  'Record',
] as const;

/** A number written as an analyst reads it: thousands separators, `min` to `max` decimals. */
export const shown = (n: number, min: number, max = min) =>
  n.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });

/** Lets the app read and write the clipboard: a copied block is checked by reading it back. */
export async function allowClipboard(browser: Browser, stack: Stack): Promise<void> {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(stack.host.url).origin,
  });
}

/** A selected block's values, each row two numeric fields then one of text, as the service holds them. */
export type Block = readonly (readonly (string | undefined)[])[];

/**
 * Waits until the status bar describes the block of `values` selected in `grid`: its `cells`, and the
 * count, sum and average (3 decimals) of the numbers in its two numeric columns, where only a number
 * counts (a filler such as "N/A" does not). Returns those numbers.
 */
export async function expectBlockSummed(grid: AgGrid, values: Block, cells: number): Promise<number[]> {
  const numbers = values
    .flatMap((r) => [r[0], r[1]])
    .map(parseDecimalText)
    .filter((n): n is number => n !== null);
  const sum = numbers.reduce((a, b) => a + b, 0);
  await expect
    .poll(() => grid.selection())
    .toEqual({
      cells,
      numbers: numbers.length,
      sum: `Sum ${shown(sum, 3)}`,
      average: `Average ${shown(sum / numbers.length, 3)}`,
    });
  return numbers;
}

/** The block as Excel pastes it from the clipboard: numbers plain, tabs between cells, CRLF between rows. */
export function excelBlock(values: Block): string {
  const plain = (v: string | undefined) => String(parseDecimalText(v) ?? v ?? '');
  return values.map((r) => [plain(r[0]), plain(r[1]), r[2]].join('\t')).join('\r\n');
}
