import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/main/fs/atomic-write';
import { createProfileStore, ProfileNameTakenError, PROFILES_FILE } from '../../src/main/profiles';

interface Warning {
  message: string;
  fields?: Record<string, unknown>;
}

function collectingLogger() {
  const warnings: Warning[] = [];
  return {
    warnings,
    warn: (message: string, fields?: Record<string, unknown>) => void warnings.push({ message, fields }),
  };
}

let dir: string;

/** A profile as a profiles file written by an earlier run (or by hand) holds it, `overrides` applied. */
const stored = (overrides: Record<string, unknown> = {}) => ({
  id: 'a',
  name: 'A',
  baseUrl: 'https://x',
  accountName: '',
  demo: false,
  createdAt: 't',
  updatedAt: 't',
  ...overrides,
});

/** Writes the profiles file of version 1 with `profiles`, `activeId` the active one, behind the store. */
const writeProfiles = (activeId: string, profiles: object[]) =>
  writeFile(join(dir, PROFILES_FILE), JSON.stringify({ version: 1, activeId, profiles }));
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portolan-profiles-'));
});

describe('profile store', () => {
  it('persists profiles and the active id across restarts', async () => {
    const log = collectingLogger();
    const store = createProfileStore({ dataDir: dir, logger: log });
    const a = await store.create({ name: 'Acme', baseUrl: 'https://api.example.com', accountName: 'acme' });
    const b = await store.create({ name: 'Beta', baseUrl: 'https://b.example.com', accountName: '' });
    // The first profile becomes active by itself.
    expect(await store.getActiveId()).toBe(a.id);
    expect(await store.setActiveId(b.id)).toBe(true);
    expect(await store.setActiveId('nope')).toBe(false);
    await store.update(a.id, { name: 'Acme Trading' });

    const reopened = createProfileStore({ dataDir: dir, logger: log });
    const list = await reopened.list();
    expect(list.map((p) => p.name)).toEqual(['Acme Trading', 'Beta']);
    expect(list[0]).toMatchObject({ baseUrl: 'https://api.example.com', accountName: 'acme', demo: false });
    expect(await reopened.getActiveId()).toBe(b.id);

    expect(await reopened.remove(b.id)).toBe(true);
    expect(await reopened.getActiveId()).toBe(a.id);
    expect(await reopened.remove(b.id)).toBe(false);
    expect(await reopened.update(b.id, { name: 'x' })).toBeNull();
    expect(log.warnings).toEqual([]);
  });

  it('loses no change when many calls run at once', async () => {
    const store = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        store.create({ name: `P${i}`, baseUrl: 'https://x.example', accountName: '' }),
      ),
    );
    const reopened = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    expect((await reopened.list()).map((p) => p.name).sort()).toEqual(
      Array.from({ length: 25 }, (_, i) => `P${i}`).sort(),
    );
    // No temp files are left next to the real one.
    expect(await readdir(dir)).toEqual([PROFILES_FILE]);
  });

  it('keeps a corrupt file aside, starts empty, logs it, and carries on', async () => {
    await writeFile(join(dir, PROFILES_FILE), '{"version":1,"activeId":null,"profiles":[{"id":"a"'); // truncated
    const log = collectingLogger();
    const store = createProfileStore({
      dataDir: dir,
      logger: log,
      now: () => new Date('2030-01-02T03:04:05.678Z'),
    });
    expect(await store.list()).toEqual([]);
    expect(await store.getActiveId()).toBeNull();
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]?.message).toMatch(/corrupt/);

    const aside = join(dir, `${PROFILES_FILE}.corrupt-2030-01-02T03-04-05-678Z`);
    expect(await readFile(aside, 'utf8')).toBe('{"version":1,"activeId":null,"profiles":[{"id":"a"');
    expect(log.warnings[0]?.fields?.file).toBe(aside);

    await store.create({ name: 'Fresh', baseUrl: 'https://x.example', accountName: '' });
    const reopened = createProfileStore({ dataDir: dir, logger: log });
    expect((await reopened.list()).map((p) => p.name)).toEqual(['Fresh']);
  });

  it('treats well-formed JSON of the wrong shape as corrupt too', async () => {
    const wrong = { version: 1, activeId: null, profiles: [{ id: 'a', name: 7 }] };
    await writeFile(join(dir, PROFILES_FILE), JSON.stringify(wrong));
    const log = collectingLogger();
    const store = createProfileStore({ dataDir: dir, logger: log });
    expect(await store.list()).toEqual([]);
    expect(String(log.warnings[0]?.fields?.problem)).toMatch(/profiles\.0\.name/);
    expect((await readdir(dir)).some((f) => f.startsWith(`${PROFILES_FILE}.corrupt-`))).toBe(true);
  });

  it('refuses a file that carries fields it does not know (e.g. a secret someone added)', async () => {
    await writeProfiles('a', [stored({ apiSecret: 'zzz' })]);
    const store = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    expect(await store.list()).toEqual([]);
  });

  it('repairs an active id that names no profile', async () => {
    await writeProfiles('gone', [stored()]);
    const store = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    expect(await store.getActiveId()).toBe('a');
  });
});

describe('profile names', () => {
  const at = (name: string) => ({ name, baseUrl: 'https://api.example.com', accountName: '' });

  it('refuses a second profile whose name differs only in case or spacing, and writes nothing for it', async () => {
    const store = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    await store.create(at('Probe'));
    for (const name of ['Probe', 'probe', 'PROBE', ' probe  ']) {
      await expect(store.create(at(name))).rejects.toBeInstanceOf(ProfileNameTakenError);
    }
    const file = JSON.parse(await readFile(join(dir, PROFILES_FILE), 'utf8')) as {
      profiles: { name: string }[];
    };
    expect(file.profiles.map((p) => p.name)).toEqual(['Probe']);
  });

  it('lets only one of four simultaneous creates of one name through', async () => {
    const store = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    const results = await Promise.allSettled(
      ['Probe', 'probe', 'Probe', 'PROBE'].map((n) => store.create(at(n))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await store.list()).toHaveLength(1);
  });

  it('refuses a rename onto another profile’s name, but allows keeping or re-casing one’s own', async () => {
    const store = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    const a = await store.create(at('Acme'));
    const b = await store.create(at('Beta'));
    await expect(store.update(b.id, { name: 'ACME' })).rejects.toBeInstanceOf(ProfileNameTakenError);
    expect((await store.get(b.id))?.name).toBe('Beta');
    expect((await store.update(a.id, { name: 'ACME', accountName: 'x' }))?.name).toBe('ACME');
  });

  it('keeps duplicates from an older file editable without forcing a rename', async () => {
    await writeProfiles('a', [stored({ name: 'Probe' }), stored({ id: 'b', name: 'Probe' })]);
    const store = createProfileStore({ dataDir: dir, logger: collectingLogger() });
    expect(await store.update('b', { name: 'Probe', baseUrl: 'https://y' })).toMatchObject({
      baseUrl: 'https://y',
    });
    expect(await store.update('b', { name: 'Probe 2' })).toMatchObject({ name: 'Probe 2' });
  });
});

describe('atomic write', () => {
  it('never lets a reader see a half-written file', async () => {
    const path = join(dir, 'big.json');
    const a = 'A'.repeat(2_000_000);
    const b = 'B'.repeat(2_000_000);
    await writeFileAtomic(path, a);
    let writing = true;
    const seen = new Set<string>();
    const reader = (async () => {
      let reads = 0;
      while (writing || reads < 5) {
        const text = await readFile(path, 'utf8');
        seen.add(text === a ? 'A' : text === b ? 'B' : `torn(${text.length})`);
        reads += 1;
      }
      return reads;
    })();
    for (let i = 0; i < 12; i++) await writeFileAtomic(path, i % 2 ? a : b);
    writing = false;
    const reads = await reader;
    expect(reads).toBeGreaterThan(0);
    expect([...seen].filter((s) => s.startsWith('torn'))).toEqual([]);
    expect(await readdir(dir)).toEqual(['big.json']);
  });

  it('leaves the old file and no temp file behind when the write fails', async () => {
    const path = join(dir, 'target');
    await writeFileAtomic(path, 'old');
    // A directory where the data should go: the rename cannot succeed.
    const blocked = join(dir, 'blocked');
    await writeFileAtomic(join(blocked, 'inner'), 'x');
    await expect(writeFileAtomic(blocked, 'new')).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe('old');
    expect((await readdir(dir)).sort()).toEqual(['blocked', 'target']);
  });

  it('creates the file owner-only', async () => {
    const path = join(dir, 'private.json');
    await writeFileAtomic(path, '{}');
    const { stat } = await import('node:fs/promises');
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});
