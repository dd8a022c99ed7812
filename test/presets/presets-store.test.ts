import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPresetsStore } from '../../src/main/presets/presets-store';
import { createPresetsServices } from '../../src/main/services/presets-service';
import { calls } from '@shared/ipc/contract';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portolan-presets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const steel = { hs_codes: ['7208'], importer_countries: ['DE', 'FR'], start_date: '2024-01-01', end_date: '2024-06-30' };

describe('presets store', () => {
  it('starts empty and persists presets across store instances', async () => {
    const a = createPresetsStore({ dataDir: dir });
    expect(await a.list()).toEqual([]);
    await a.save({ name: 'Steel to EU', filter: steel });
    const b = createPresetsStore({ dataDir: dir });
    const list = await b.list();
    expect(list.map((p) => p.name)).toEqual(['Steel to EU']);
    expect(list[0]?.filter).toEqual(steel);
  });

  it('renames, duplicates, reorders and deletes', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await s.save({ name: 'A', filter: { hs_codes: ['01'] } });
    let list = await s.save({ name: 'B', filter: { hs_codes: ['02'] } });
    const [a, b] = list;
    list = await s.rename(a!.id, 'Animals');
    expect(list.map((p) => p.name)).toEqual(['Animals', 'B']);
    list = await s.duplicate(a!.id);
    expect(list.map((p) => p.name)).toEqual(['Animals', 'Animals copy', 'B']);
    expect(list[1]?.filter).toEqual({ hs_codes: ['01'] });
    list = await s.move(b!.id, 'up');
    expect(list.map((p) => p.name)).toEqual(['Animals', 'B', 'Animals copy']);
    list = await s.move(a!.id, 'up'); // already first: unchanged
    expect(list.map((p) => p.name)).toEqual(['Animals', 'B', 'Animals copy']);
    list = await s.remove(a!.id);
    expect(list.map((p) => p.name)).toEqual(['B', 'Animals copy']);
    await expect(s.rename(a!.id, 'x')).rejects.toMatchObject({ kind: 'NotFound' });
    const reread = await createPresetsStore({ dataDir: dir }).list();
    expect(reread.map((p) => p.name)).toEqual(['B', 'Animals copy']);
  });

  it('keeps names unique', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await s.save({ name: 'Steel', filter: steel });
    const list = await s.save({ name: 'steel', filter: steel });
    expect(list.map((p) => p.name)).toEqual(['Steel', 'steel (2)']);
  });

  it('refuses a filter the spec rejects', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await expect(s.save({ name: 'bad', filter: { hs_codes: ['72a8'] } })).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: expect.stringContaining('hs_codes[0]: digits only'),
    });
    expect(await s.list()).toEqual([]);
  });

  it('writes atomically: a concurrent reader never sees a partial file and no temp file is left', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await s.save({ name: 'seed', filter: steel });
    let writing = true;
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        const text = await readFile(join(dir, 'presets.json'), 'utf8');
        expect(() => JSON.parse(text)).not.toThrow();
        reads++;
      }
    })();
    // Fired without awaiting each: the store must serialise them and keep every one.
    const saves = Array.from({ length: 40 }, (_, i) =>
      s.save({ name: `p${i}`, filter: { ...steel, product_detail: 'x'.repeat(3 + (i % 50)) } }),
    );
    await Promise.all(saves);
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    const onDisk = JSON.parse(await readFile(join(dir, 'presets.json'), 'utf8')) as { presets: unknown[] };
    expect(onDisk.presets).toHaveLength(41);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('moves a corrupt file aside, keeps it, and starts empty', async () => {
    await writeFile(join(dir, 'presets.json'), '{"format":"portolan-presets","version":1,"presets":[{"na');
    const s = createPresetsStore({ dataDir: dir });
    expect(await s.list()).toEqual([]);
    expect(s.corruptCopy).not.toBeNull();
    const files = await readdir(dir);
    const aside = files.find((f) => f.startsWith('presets.corrupt-'));
    expect(aside).toBeDefined();
    expect(await readFile(join(dir, aside!), 'utf8')).toContain('"presets":[{"na');
    await s.save({ name: 'fresh', filter: steel });
    expect((await createPresetsStore({ dataDir: dir }).list()).map((p) => p.name)).toEqual(['fresh']);
  });

  it('treats a well-formed file with an invalid filter as corrupt too', async () => {
    await writeFile(
      join(dir, 'presets.json'),
      JSON.stringify({ format: 'portolan-presets', version: 1, presets: [{ id: 'x', name: 'n', filter: { start_date: '2024-02-30' }, createdAt: 't', updatedAt: 't' }] }),
    );
    const s = createPresetsStore({ dataDir: dir });
    expect(await s.list()).toEqual([]);
    expect(s.corruptCopy).toMatch(/presets\.corrupt-/);
  });

  it('remembers the last filter', async () => {
    const s = createPresetsStore({ dataDir: dir });
    expect(await s.getLast()).toBeNull();
    await s.setLast({ ...steel, search_type: 'importer' });
    expect(await createPresetsStore({ dataDir: dir }).getLast()).toEqual({ ...steel, search_type: 'importer' });
  });
});

describe('presets import and export', () => {
  it('round-trips through export and import', async () => {
    const a = createPresetsStore({ dataDir: dir });
    await a.save({ name: 'Steel', filter: steel });
    await a.save({ name: 'Coffee', filter: { hs_codes: ['0901'], search_type: 'exporter', product_detail: 'arabica' } });
    const text = await a.exportText();
    const parsed = JSON.parse(text) as { format: string; version: number; presets: { name: string }[] };
    expect(parsed.format).toBe('portolan-presets');
    expect(parsed.version).toBe(1);

    const otherDir = await mkdtemp(join(tmpdir(), 'portolan-presets-b-'));
    try {
      const b = createPresetsStore({ dataDir: otherDir });
      const result = await b.importText(text);
      expect(result.imported).toBe(2);
      expect(result.skipped).toEqual([]);
      const list = await b.list();
      expect(list.map((p) => [p.name, p.filter])).toEqual((await a.list()).map((p) => [p.name, p.filter]));
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('drops unknown fields, including anything secret-looking, and never exports them', async () => {
    const s = createPresetsStore({ dataDir: dir });
    const file = {
      format: 'portolan-presets',
      version: 1,
      apiSecret: 'TOP-SECRET-1',
      presets: [{ name: 'Steel', apiSecret: 'TOP-SECRET-2', filter: { ...steel, apiSecret: 'TOP-SECRET-3', colour: 'red' } }],
    };
    const result = await s.importText(JSON.stringify(file));
    expect(result.imported).toBe(1);
    expect(result.presets[0]?.filter).toEqual(steel);
    const exported = await s.exportText();
    const stored = await readFile(join(dir, 'presets.json'), 'utf8');
    for (const text of [exported, stored]) {
      expect(text).not.toContain('TOP-SECRET');
      expect(text).not.toContain('colour');
    }
  });

  it('re-validates filters and skips the invalid presets with their reason', async () => {
    const s = createPresetsStore({ dataDir: dir });
    const result = await s.importText(
      JSON.stringify({
        format: 'portolan-presets',
        version: 1,
        presets: [
          { name: 'ok', filter: { hs_codes: ['7208'] } },
          { name: 'bad dates', filter: { start_date: '2024-05-01', end_date: '2024-01-01' } },
          { name: 'short', filter: { product_detail: 'ab' } },
          { filter: {} },
        ],
      }),
    );
    expect(result.imported).toBe(1);
    expect(result.skipped).toEqual([
      { name: 'bad dates', reason: 'end_date: must not be before start_date' },
      { name: 'short', reason: 'product_detail: at least 3 characters' },
      { name: '#4', reason: 'a name is required' },
    ]);
  });

  it('rejects a file that is not a presets file or is from a newer version', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await expect(s.importText('not json')).rejects.toMatchObject({ kind: 'InvalidInput' });
    await expect(s.importText(JSON.stringify({ format: 'other', version: 1, presets: [] }))).rejects.toMatchObject({
      message: expect.stringContaining('not a Portolan presets file'),
    });
    await expect(
      s.importText(JSON.stringify({ format: 'portolan-presets', version: 2, presets: [] })),
    ).rejects.toMatchObject({ message: expect.stringContaining('version 2') });
  });
});

describe('presets services through the bridge schemas', () => {
  it('accepts parsed inputs and the contract rejects an invalid filter before the service', async () => {
    const svc = createPresetsServices({ dataDir: dir });
    const input = calls['presets.save'].input.parse({ name: '  Steel  ', filter: steel });
    const list = await svc['presets.save'](input, {});
    expect(list[0]?.name).toBe('Steel');
    expect(calls['presets.save'].input.safeParse({ name: 'x', filter: { hs_codes: ['abc'] } }).success).toBe(false);
    expect(calls['presets.save'].input.safeParse({ name: 'x', filter: { nope: 1 } }).success).toBe(false);
    const exported = await svc['presets.export'](calls['presets.export'].input.parse(undefined), {});
    expect(JSON.parse(exported).presets).toHaveLength(1);
  });
});
