// @ts-check
/**
 * Writes the architecture table (architecture.config.mjs, the one ESLint enforces) into
 * docs/architecture.md between its markers, formatted by Prettier. `node scripts/architecture-doc.mjs`;
 * test/architecture fails while the doc and the table differ.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import prettier from 'prettier';
import { architectureTable } from '../architecture.config.mjs';

export const DOC = join(import.meta.dirname, '..', 'docs', 'architecture.md');
export const START = '<!-- architecture-table:start (generated from architecture.config.mjs) -->';
export const END = '<!-- architecture-table:end -->';

const doc = await readFile(DOC, 'utf8');
const a = doc.indexOf(START);
const b = doc.indexOf(END);
if (a < 0 || b < a) throw new Error(`docs/architecture.md has no ${START} … ${END} markers`);
const next = `${doc.slice(0, a + START.length)}\n\n${architectureTable()}\n\n${doc.slice(b)}`;
const options = (await prettier.resolveConfig(DOC)) ?? {};
await writeFile(DOC, await prettier.format(next, { ...options, filepath: DOC }));
console.log('docs/architecture.md: table written');
