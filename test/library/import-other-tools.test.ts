import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewImport, runImport } from '../../src/main/library';
import { unreadableFile } from '../../src/main/library/import/refusal';
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
    ['EBUSY', /another program holds it locked; close it in that program/],
    ['ETIMEDOUT', /network drive did not answer in time/],
  ])('words %s (Windows locks, permissions, network drives) for the analyst', (code, words) => {
    const e = Object.assign(new Error(`${code}: open 'C:\\\\Users\\\\a\\\\x.csv'`), { code });
    expect(unreadableFile(e)?.message).toMatch(words);
    expect(unreadableFile(e)?.message).not.toMatch(/C:|x\.csv|E[A-Z]+/);
  });
});
