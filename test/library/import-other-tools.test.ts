import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewImport, runImport } from '../../src/main/library';
import { useLibrary } from '../helpers/library';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-other-');
const l = useLibrary('portolan-import-other-lib-');

async function rowsOf(id: string): Promise<Record<string, unknown>[]> {
  return (await l.lib.getRows(id, { startRow: 0, endRow: 1000 })).rows.map(({ _row, ...r }) => r);
}

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
