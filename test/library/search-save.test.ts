import { afterEach, describe, expect, it } from 'vitest';
import { Library } from '../../src/main/library';
import { useLibrary } from '../helpers/library';
import { shipment } from './helpers';

const temp = useLibrary('portolan-lib-test-');
// Registered after the library's: vitest runs it first, so no held save is left waiting on a closing library.
afterEach(async () => {
  for (const open of gates.splice(0)) open();
});

const request = { hs_codes: ['7208'], start_date: '2024-01-01', end_date: '2024-06-30', size: 100 };
const records = Array.from({ length: 40 }, (_, i) => shipment(i));

/** Gates the tests open: the rows stay in memory until then (and are let go after each test). */
const gates: (() => void)[] = [];
function gate(): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gates.push(open);
  return { wait: () => opened, open };
}

/** The 40 records saved as a search under `id`, their rows held in memory until `held.open()`. */
function saveHeld(id: string): { saved: Promise<unknown>; held: { open: () => void } } {
  const held = gate();
  const saved = temp.lib.saveShipmentSearch(
    request,
    { total: 40, shipments: records },
    { id, moveAfter: held.wait },
  );
  return { saved, held };
}

/** Whether a promise is still pending after everything queued so far has run. */
async function pending(p: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const first = await Promise.race([p.then(() => null), new Promise((r) => setTimeout(() => r(marker), 50))]);
  return first === marker;
}

async function rowsInFile(id: string): Promise<number> {
  return Number(
    (await temp.lib.reader.one(`SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = $1`, [id]))?.n,
  );
}

async function inMemoryTables(): Promise<number> {
  // A unit of work first: a table dropped after a move is dropped on the writing connection's queue.
  await temp.lib.write(async () => undefined);
  const r = await temp.lib.reader.one(
    `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'portolan_fresh'`,
  );
  return Number(r?.n);
}

describe('a shipment search saved while the window shows it', () => {
  it('is listed and read by the grid (sorted and filtered) while its rows move into the file', async () => {
    const id = 'b3f2c1d0-0000-4000-8000-000000000001';
    const { saved, held } = saveHeld(id);

    const meta = await temp.lib.get(id);
    expect(meta).toMatchObject({ id, status: 'complete', storedRows: 40, kind: 'shipments' });
    expect((await temp.lib.list()).map((d) => d.id)).toEqual([id]);
    const block = await temp.lib.getRows(id, {
      startRow: 0,
      endRow: 5,
      sortModel: [{ colId: 'fobValue', sort: 'desc' }],
    });
    expect(block.lastRow).toBe(40);
    const byValue = [...records].sort((a, b) => Number(b.fobValue) - Number(a.fobValue) || 0);
    expect(block.rows.map((r) => Number(r.fobValue))).toEqual(
      byValue.slice(0, 5).map((r) => Number(r.fobValue)),
    );
    const filtered = await temp.lib.getRows(id, { startRow: 0, endRow: 100, quickFilter: 'h000031' });
    expect(filtered.rows.map((r) => r.hashId)).toEqual(['h000031']);
    expect(filtered.lastRow).toBe(1);

    // Analysis and export read the file: they wait for the rows rather than miss them.
    const counted = rowsInFile(id);
    expect(await pending(counted)).toBe(true);
    expect(await pending(saved)).toBe(true);

    // A read that needs the firms waits for them to be resolved from the file, still reading its rows
    // from memory, which are kept until it ends.
    const withFirms = temp.lib.getRows(id, { startRow: 0, endRow: 3, columns: ['hashId', 'importerFirm'] });
    held.open();
    const firmsFromMemory = (await withFirms).rows;
    expect(firmsFromMemory.map((r) => r.hashId)).toEqual(['h000000', 'h000001', 'h000002']);
    expect(firmsFromMemory.every((r) => typeof r.importerFirm === 'string' && r.importerFirm !== '')).toBe(
      true,
    );
    expect(await counted).toBe(40);
    await expect(saved).resolves.toMatchObject({ id, status: 'complete', storedRows: 40 });
    expect(await inMemoryTables()).toBe(0);
    const again = await temp.lib.getRows(id, {
      startRow: 0,
      endRow: 5,
      sortModel: [{ colId: 'fobValue', sort: 'desc' }],
    });
    expect(again.rows.map((r) => r.hashId)).toEqual(block.rows.map((r) => r.hashId));
    const firmsFromFile = await temp.lib.getRows(id, {
      startRow: 0,
      endRow: 3,
      columns: ['hashId', 'importerFirm'],
    });
    expect(firmsFromFile.rows).toEqual(firmsFromMemory);
  });

  it('is in the file, whole, after the library closes, even when it closes while the rows move', async () => {
    const id = 'b3f2c1d0-0000-4000-8000-000000000002';
    const { saved, held } = saveHeld(id);
    await temp.lib.get(id);
    const closed = temp.lib.close();
    expect(await pending(closed)).toBe(true);
    held.open();
    await closed;
    await saved;
    temp.lib = await Library.open(temp.dir);
    expect(await temp.lib.get(id)).toMatchObject({ status: 'complete', storedRows: 40 });
    expect(await rowsInFile(id)).toBe(40);
  });

  it('is deleted whole when the analyst deletes it while its rows move', async () => {
    const id = 'b3f2c1d0-0000-4000-8000-000000000003';
    const { saved, held } = saveHeld(id);
    await temp.lib.get(id);
    const deleted = temp.lib.delete(id);
    held.open();
    await deleted;
    await saved;
    await expect(temp.lib.get(id)).rejects.toMatchObject({ kind: 'NotFound' });
    expect(await rowsInFile(id)).toBe(0);
    expect(await inMemoryTables()).toBe(0);
  });

  it('leaves nothing behind when a record breaks the spec, and can be saved again under its id', async () => {
    const id = 'b3f2c1d0-0000-4000-8000-000000000004';
    const bad = [shipment(1), { ...shipment(2), fobValue: 12 }];
    await expect(
      temp.lib.saveShipmentSearch(request, { total: 2, shipments: bad as unknown as typeof records }, { id }),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
    await expect(temp.lib.get(id)).rejects.toMatchObject({
      message: expect.stringContaining('could not be saved') as unknown,
    });
    expect(await temp.lib.list()).toEqual([]);
    expect(await inMemoryTables()).toBe(0);
    const datasets = await temp.lib.reader.one(`SELECT count(*) AS n FROM datasets`);
    expect(Number(datasets?.n)).toBe(0);

    await temp.lib.saveShipmentSearch(request, { total: 2, shipments: [shipment(1), shipment(2)] }, { id });
    expect(await temp.lib.get(id)).toMatchObject({ storedRows: 2 });
    expect(await rowsInFile(id)).toBe(2);
  });
});
