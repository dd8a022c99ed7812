import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewImport } from '../../src/main/library';
import { prepareImport } from '../../src/main/library/import/preview';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-preview-thread-');

/** CPU time this thread has run, in ms (Linux: the scheduler's own count, to the nanosecond). */
function threadCpuMs(): number {
  return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
}

/** A file whose preview costs real work: 1,200 columns of amounts, days and names in its first rows. */
async function wideCsv(): Promise<string> {
  const columns = 1_200;
  const header = Array.from({ length: columns }, (_, c) =>
    c === 0 ? 'Arrival Date' : c === 1 ? 'Importer Name' : c === 2 ? 'USD FOB' : `Measure ${c}`,
  );
  const lines = [header.join(',')];
  for (let r = 0; r < 80; r++) {
    lines.push(
      Array.from({ length: columns }, (_, c) =>
        c % 3 === 0 ? `2025-0${(r % 9) + 1}-1${r % 10}` : c % 3 === 1 ? `Firm ${r} ${c}` : `"${r},${c}5.50"`,
      ).join(','),
    );
  }
  const path = join(t.dir, 'wide.csv');
  await writeFile(path, lines.join('\n'));
  return path;
}

describe('import preview', () => {
  it('is prepared in the import worker: the main thread spends a fraction of what preparing it costs', async () => {
    const path = await wideCsv();
    const before = threadCpuMs();
    const prepared = await previewImport(path);
    const inPreview = threadCpuMs() - before;
    expect(prepared.view.columns).toHaveLength(1_200);
    expect(prepared.plan.mapping.slice(0, 3)).toEqual(['arrivalDate', 'importerName', 'usdFob']);

    // What the same preparation costs on this thread, done here, for the first time in this process.
    const start = threadCpuMs();
    const again = prepareImport(prepared.raw, prepared.view.fileName, {}, () => null, []);
    const preparing = threadCpuMs() - start;
    expect(again.view).toEqual(prepared.view);
    expect(again.plan).toEqual(prepared.plan);
    expect(inPreview).toBeLessThan(preparing / 2);
  });
});
