import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPresetsStore } from '../../src/main/presets/presets-store';
import { createPresetsHandlers } from '../../src/main/handlers/presets-handlers';
import { calls } from '@shared/ipc/contract';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portolan-presets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const steel = {
  hs_codes: ['7208'],
  importer_countries: ['DE', 'FR'],
  start_date: '2024-01-01',
  end_date: '2024-06-30',
};

/** A preset of the Steel filter as presets.json holds it. */
const saved = (id: string, name: string) => ({ id, name, filter: steel, createdAt: 't', updatedAt: 't' });

/** Writes presets.json as an earlier version (or another hand) left it: `presets`, and the last filter if given. */
const writePresets = (presets: object[], opts: { version?: number; last?: object } = {}) =>
  writeFile(
    join(dir, 'presets.json'),
    JSON.stringify({
      format: 'portolan-presets',
      version: opts.version ?? 1,
      presets,
      ...(opts.last ? { last: opts.last } : {}),
    }),
  );

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

  it('moves a preset straight to a place in the list (drag and drop), the others keeping their order', async () => {
    const s = createPresetsStore({ dataDir: dir });
    for (const name of ['A', 'B', 'C', 'D']) await s.save({ name, filter: steel });
    const [a, , , d] = await s.list();
    let list = await s.move(a!.id, { toIndex: 2 });
    expect(list.map((p) => p.name)).toEqual(['B', 'C', 'A', 'D']);
    list = await s.move(d!.id, { toIndex: 0 });
    expect(list.map((p) => p.name)).toEqual(['D', 'B', 'C', 'A']);
    list = await s.move(d!.id, { toIndex: 99 }); // past the end: last
    expect(list.map((p) => p.name)).toEqual(['B', 'C', 'A', 'D']);
    const reread = await createPresetsStore({ dataDir: dir }).list();
    expect(reread.map((p) => p.name)).toEqual(['B', 'C', 'A', 'D']);
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
      message: expect.stringContaining('HS codes: “72a8”: digits only'),
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

  it('says once that a wholly unreadable file was kept, without a count it cannot know', async () => {
    await writeFile(join(dir, 'presets.json'), '{"format":"portolan-presets","version":1,"presets":[{"na');
    const s = createPresetsStore({ dataDir: dir });
    expect(await s.takeSetAside()).toEqual({ count: null, file: s.corruptCopy });
    expect(await s.takeSetAside()).toBeNull();
  });

  it('counts the presets of a readable file it cannot use (a newer version)', async () => {
    await writePresets(
      [1, 2, 3].map((n) => saved(`i${n}`, `p${n}`)),
      { version: 2 },
    );
    const s = createPresetsStore({ dataDir: dir });
    expect(await s.list()).toEqual([]);
    expect(await s.takeSetAside()).toEqual({
      count: 3,
      file: expect.stringMatching(/presets\.corrupt-.*\.json$/),
    });
  });

  it('keeps the readable presets when some entries are bad, keeps the original beside it and says so once', async () => {
    const ok = {
      id: 'a',
      name: 'Steel',
      filter: steel,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
    };
    const text = JSON.stringify({
      format: 'portolan-presets',
      version: 1,
      presets: [
        ok,
        { id: 'b', name: 'Bad date', filter: { start_date: '2024-02-30' }, createdAt: 't', updatedAt: 't' },
        { id: 'c', filter: steel, createdAt: 't', updatedAt: 't' },
        42,
        { id: 'd', name: 'Coffee', filter: { hs_codes: ['0901'] }, createdAt: 't', updatedAt: 't' },
      ],
      last: { hs_codes: ['0901'] },
    });
    await writeFile(join(dir, 'presets.json'), text);
    const s = createPresetsStore({ dataDir: dir });
    expect((await s.list()).map((p) => p.name)).toEqual(['Steel', 'Coffee']);
    expect((await s.list())[0]).toEqual(ok);
    expect(await s.getLast()).toEqual({ hs_codes: ['0901'] });
    const aside = await s.takeSetAside();
    expect(aside).toEqual({ count: 3, file: s.corruptCopy });
    expect(await readFile(aside!.file, 'utf8')).toBe(text);
    expect(await s.takeSetAside()).toBeNull();

    // The file was rewritten with the good presets: the next start is clean and keeps no new copy.
    const again = createPresetsStore({ dataDir: dir });
    expect((await again.list()).map((p) => p.name)).toEqual(['Steel', 'Coffee']);
    expect(await again.getLast()).toEqual({ hs_codes: ['0901'] });
    expect(await again.takeSetAside()).toBeNull();
    expect((await readdir(dir)).filter((f) => f.startsWith('presets.corrupt-'))).toHaveLength(1);
  });

  it('reads a file an earlier version wrote with a name over the limit, shortening the name', async () => {
    await writePresets([saved('x', 'L'.repeat(100)), saved('y', `${'L'.repeat(100)} copy`)], { last: steel });
    const s = createPresetsStore({ dataDir: dir });
    const list = await s.list();
    expect(list.map((p) => p.name.length)).toEqual([100, 100]);
    expect(list.map((p) => p.id)).toEqual(['x', 'y']);
    expect(await s.getLast()).toEqual(steel);
    expect(s.corruptCopy).toBeNull();
    expect(await s.takeSetAside()).toBeNull();
  });

  it('gives presets with a missing or repeated id an id of their own', async () => {
    await writePresets([saved('same', 'A'), saved('same', 'B'), { name: 'C', filter: steel }]);
    const s = createPresetsStore({ dataDir: dir, now: () => new Date('2024-03-01T00:00:00.000Z') });
    const list = await s.list();
    expect(list.map((p) => p.name)).toEqual(['A', 'B', 'C']);
    expect(new Set(list.map((p) => p.id)).size).toBe(3);
    expect(list[0]?.id).toBe('same');
    expect(list[2]?.createdAt).toBe('2024-03-01T00:00:00.000Z');
    expect(await s.takeSetAside()).toBeNull();
  });

  it('remembers the last filter', async () => {
    const s = createPresetsStore({ dataDir: dir });
    expect(await s.getLast()).toBeNull();
    await s.setLast({ ...steel, search_type: 'importer' });
    expect(await createPresetsStore({ dataDir: dir }).getLast()).toEqual({
      ...steel,
      search_type: 'importer',
    });
  });
});

const L100 = 'L'.repeat(100);
/** What a restart sees: a new store over the same folder. */
const restart = async () => {
  const s = createPresetsStore({ dataDir: dir });
  const list = await s.list();
  return { names: list.map((p) => p.name), aside: await s.takeSetAside() };
};

describe('preset names at the length limit', () => {
  it('duplicates a 100-character name within the limit, and all presets survive a restart', async () => {
    const s = createPresetsStore({ dataDir: dir });
    const [p] = await s.save({ name: L100, filter: steel });
    await s.duplicate(p!.id);
    const list = await s.duplicate(p!.id);
    const expected = [L100, `${'L'.repeat(91)} copy (2)`, `${'L'.repeat(95)} copy`];
    expect(list.map((x) => x.name)).toEqual(expected);
    expect(await restart()).toEqual({ names: expected, aside: null });
    expect((await readdir(dir)).filter((f) => f.startsWith('presets.corrupt-'))).toEqual([]);
  });

  it('numbers a colliding 100-character name within the limit on save and rename', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await s.save({ name: L100, filter: steel });
    await s.save({ name: L100.toLowerCase(), filter: steel });
    const list = await s.save({ name: 'other', filter: steel });
    const renamed = await s.rename(list[2]!.id, L100);
    const expected = [L100, `${'l'.repeat(96)} (2)`, `${'L'.repeat(96)} (3)`];
    expect(renamed.map((x) => x.name)).toEqual(expected);
    expect(await restart()).toEqual({ names: expected, aside: null });
  });

  it('imports names cut to the limit and numbered within it, and they survive a restart', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await s.save({ name: L100, filter: steel });
    const result = await s.importText(
      JSON.stringify({
        format: 'portolan-presets',
        version: 1,
        presets: [
          { name: 'L'.repeat(150), filter: steel },
          { name: L100, filter: steel },
        ],
      }),
    );
    expect(result.imported).toBe(2);
    const expected = [L100, `${'L'.repeat(96)} (2)`, `${'L'.repeat(96)} (3)`];
    expect(result.presets.map((p) => p.name)).toEqual(expected);
    expect(await restart()).toEqual({ names: expected, aside: null });
  });

  it('never splits an emoji when it shortens a name', async () => {
    const s = createPresetsStore({ dataDir: dir });
    // 94 letters and an emoji (two UTF-16 units) make 96; with " copy" the base may keep only 95.
    const [p] = await s.save({ name: `${'a'.repeat(94)}\u{1F600}`, filter: steel });
    const list = await s.duplicate(p!.id);
    expect(list[1]?.name).toBe(`${'a'.repeat(94)} copy`);
  });
});

describe('unsafe characters in preset names', () => {
  it('strips control and bidi-override characters on save, rename and import', async () => {
    const s = createPresetsStore({ dataDir: dir });
    const [p] = await s.save({ name: 'Steel\u0000 to\u202E EU', filter: steel });
    expect(p?.name).toBe('Steel to EU');
    const renamed = await s.rename(p!.id, '\u2066Coffee\u2069\tbeans\u200F');
    expect(renamed[0]?.name).toBe('Coffee beans');
    const result = await s.importText(
      JSON.stringify({
        format: 'portolan-presets',
        version: 1,
        presets: [
          { name: 'gpj.\u202Eexe', filter: steel },
          { name: '\u0000\u202E', filter: steel },
        ],
      }),
    );
    expect(result.presets.map((x) => x.name)).toEqual(['Coffee beans', 'gpj.exe']);
    expect(result.skipped).toEqual([{ name: '#2', reason: 'a name is required' }]);
  });

  it('strips them from names already in presets.json', async () => {
    await writePresets([saved('x', 'Ste\u0000el\u202E')]);
    expect((await createPresetsStore({ dataDir: dir }).list()).map((p) => p.name)).toEqual(['Steel']);
  });

  it('the channel schemas clean names before checking them, and refuse a name over the limit', () => {
    const rename = calls['presets.rename'].input;
    expect(rename.parse({ id: 'x', name: ' A\u0000B\u202EC ' }).name).toBe('ABC');
    // 100 visible characters plus invisible ones: fine once cleaned.
    expect(rename.safeParse({ id: 'x', name: `\u202E${L100}\u0000` }).success).toBe(true);
    expect(rename.safeParse({ id: 'x', name: 'x'.repeat(101) }).success).toBe(false);
    expect(calls['presets.save'].input.safeParse({ name: '\u202E\u0000', filter: steel }).success).toBe(
      false,
    );
  });
});

describe('presets import and export', () => {
  it('round-trips through export and import', async () => {
    const a = createPresetsStore({ dataDir: dir });
    await a.save({ name: 'Steel', filter: steel });
    await a.save({
      name: 'Coffee',
      filter: { hs_codes: ['0901'], search_type: 'exporter', product_detail: 'arabica' },
    });
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
      presets: [
        {
          name: 'Steel',
          apiSecret: 'TOP-SECRET-2',
          filter: { ...steel, apiSecret: 'TOP-SECRET-3', colour: 'red' },
        },
      ],
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
      { name: 'bad dates', reason: 'Date to: must not be before Date from' },
      { name: 'short', reason: 'Product description: at least 3 characters' },
      { name: '#4', reason: 'a name is required' },
    ]);
  });

  it('says an entry that is not an object is not a preset', async () => {
    const s = createPresetsStore({ dataDir: dir });
    const result = await s.importText(
      JSON.stringify({
        format: 'portolan-presets',
        version: 1,
        presets: [{ name: 'ok', filter: steel }, 'string item', null, 42, ['x']],
      }),
    );
    expect(result.imported).toBe(1);
    const why = 'not a preset (a preset has a name and a filter)';
    expect(result.skipped).toEqual([
      { name: '#2', reason: `this entry is a piece of text, ${why}` },
      { name: '#3', reason: `this entry is nothing (null), ${why}` },
      { name: '#4', reason: `this entry is a number, ${why}` },
      { name: '#5', reason: `this entry is a list, ${why}` },
    ]);
  });

  it('refuses a version that is not a whole number from 1, saying what it found', async () => {
    const s = createPresetsStore({ dataDir: dir });
    const file = (version: unknown) =>
      JSON.stringify({ format: 'portolan-presets', version, presets: [{ name: 'p', filter: steel }] });
    for (const [version, shown] of [
      [-5, '-5'],
      [0, '0'],
      [1.5, '1.5'],
      ['1', '"1"'],
      [true, 'true'],
    ] as const) {
      await expect(s.importText(file(version))).rejects.toMatchObject({
        kind: 'InvalidInput',
        message: `Cannot import presets: the presets version must be a whole number such as 1, but the file says ${shown}`,
      });
    }
    await expect(
      s.importText(JSON.stringify({ format: 'portolan-presets', presets: [] })),
    ).rejects.toMatchObject({
      message: 'Cannot import presets: the presets version is missing (this app reads version 1)',
    });
    expect(await s.list()).toEqual([]);
  });

  it('says what the file should be when it holds a list or a single value', async () => {
    const s = createPresetsStore({ dataDir: dir });
    const should =
      'it should be a presets export from Portolan: one JSON object with "format", "version" and "presets"';
    for (const [text, holds] of [
      ['[{"name":"x","filter":{}}]', 'a list'],
      ['null', 'nothing (null)'],
      ['"presets"', 'a piece of text'],
      ['42', 'a number'],
    ] as const) {
      const err = await s.importText(text).catch((e: unknown) => e as Error);
      expect(err).toMatchObject({
        kind: 'InvalidInput',
        message: `Cannot import presets: the file holds ${holds}; ${should}`,
      });
      expect((err as Error).message).not.toMatch(/Invalid input|expected/);
    }
  });

  it('rejects a file that is not a presets file or is from a newer version', async () => {
    const s = createPresetsStore({ dataDir: dir });
    await expect(s.importText('not json')).rejects.toMatchObject({ kind: 'InvalidInput' });
    await expect(
      s.importText(JSON.stringify({ format: 'other', version: 1, presets: [] })),
    ).rejects.toMatchObject({
      message: expect.stringContaining('not a Portolan presets file'),
    });
    await expect(
      s.importText(JSON.stringify({ format: 'portolan-presets', version: 2, presets: [] })),
    ).rejects.toMatchObject({ message: expect.stringContaining('version 2') });
  });
});

describe('presets handlers through the bridge schemas', () => {
  it('presets.list carries the set-aside notice once', async () => {
    await writeFile(join(dir, 'presets.json'), 'not json');
    const svc = createPresetsHandlers({ dataDir: dir });
    const first = await svc['presets.list'](undefined, {});
    expect(first).toEqual({
      presets: [],
      setAside: { count: null, file: expect.stringContaining('presets.corrupt-') },
    });
    expect(await svc['presets.list'](undefined, {})).toEqual({ presets: [], setAside: null });
  });

  it('accepts parsed inputs and the contract rejects an invalid filter before the service', async () => {
    const svc = createPresetsHandlers({ dataDir: dir });
    const input = calls['presets.save'].input.parse({ name: '  Steel  ', filter: steel });
    const list = await svc['presets.save'](input, {});
    expect(list[0]?.name).toBe('Steel');
    expect(calls['presets.save'].input.safeParse({ name: 'x', filter: { hs_codes: ['abc'] } }).success).toBe(
      false,
    );
    expect(calls['presets.save'].input.safeParse({ name: 'x', filter: { nope: 1 } }).success).toBe(false);
    const exported = await svc['presets.export'](calls['presets.export'].input.parse(undefined), {});
    expect(JSON.parse(exported).presets).toHaveLength(1);
  });
});
