import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../src/main/library/import';
import { useLibrary } from '../helpers/library';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-extra-cols-');
const l = useLibrary('portolan-extra-cols-lib-');

/** A CSV another tool wrote: three known fields, and columns no field takes (a number, a day, a text). */
async function csv(): Promise<string> {
  const path = join(t.dir, 'desk.csv');
  await writeFile(
    path,
    [
      'Importer Name,HS Code,Arrival Date,Margin,Checked on,Desk note',
      'Acme Steel,720810,2025-01-05,"1,250.5",2025-02-01,urgent',
      'Beta Metals,720811,2025-01-06,90,2025-01-15,',
      'Gamma Trade,720812,2025-01-07,300,2025-03-10,call back Zebra',
    ].join('\n'),
  );
  return path;
}

const hashesOf = async (id: string, query: Record<string, unknown>): Promise<string[]> =>
  (await l.lib.getRows(id, { startRow: 0, endRow: 100, ...query })).rows.map((r) => String(r.importerName));

describe('an imported file’s extra columns', () => {
  it('are typed by their values, filtered and sorted as such, and searched by the quick filter', async () => {
    const r = await importFile(l.lib, await csv());
    const id = r.dataset.id;
    expect(r.dataset.extraColumns).toEqual(['Margin', 'Checked on', 'Desk note']);
    expect((await l.lib.extrasOf(id)).types).toEqual({
      Margin: 'number',
      'Checked on': 'date',
      'Desk note': 'text',
    });

    // Numbers as numbers ("1,250.5" is 1250.5, not text that sorts before "300").
    expect(
      await hashesOf(id, {
        filterModel: { 'extra:Margin': { filterType: 'number', type: 'greaterThan', filter: 100 } },
      }),
    ).toEqual(['Acme Steel', 'Gamma Trade']);
    expect(await hashesOf(id, { sortModel: [{ colId: 'extra:Margin', sort: 'desc' }] })).toEqual([
      'Acme Steel',
      'Gamma Trade',
      'Beta Metals',
    ]);
    // Days as days.
    expect(
      await hashesOf(id, {
        filterModel: {
          'extra:Checked on': {
            filterType: 'date',
            type: 'inRange',
            dateFrom: '2025-01-20 00:00:00',
            dateTo: '2025-03-01 00:00:00',
          },
        },
      }),
    ).toEqual(['Acme Steel']);
    expect(await hashesOf(id, { sortModel: [{ colId: 'extra:Checked on', sort: 'asc' }] })).toEqual([
      'Beta Metals',
      'Acme Steel',
      'Gamma Trade',
    ]);
    // Text as text, and blank as blank.
    expect(
      await hashesOf(id, {
        filterModel: { 'extra:Desk note': { filterType: 'text', type: 'blank' } },
      }),
    ).toEqual(['Beta Metals']);
    // The quick filter reads them too.
    expect(await hashesOf(id, { quickFilter: 'zebra' })).toEqual(['Gamma Trade']);
    expect(await hashesOf(id, { quickFilter: '1,250.5' })).toEqual(['Acme Steel']);
    const all = [];
    for await (const rows of l.lib.streamFieldRows(id, ['importerName', 'extra:Desk note'], {
      query: { quickFilter: 'urgent' },
    }))
      all.push(...rows);
    expect(all).toEqual([['Acme Steel', 'urgent']]);
  });
});
