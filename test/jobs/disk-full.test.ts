import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/main/jobs';
import { Library } from '../../src/main/library';
import { toBridgeResultError } from '../../src/main/handlers/dispatcher';
import { startSim, type SimSetup } from './helpers';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

// A real full disk: the library on a small tmpfs (mounting needs root, as on CI's machine).
const mountable = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;

describe('a fetch job on a full disk', () => {
  it.skipIf(!mountable)(
    'fails in plain words, resumable, and the library keeps what it had',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'portolan-disk-full-'));
      cleanup.push(() => rm(root, { recursive: true, force: true }));
      const dataDir = join(root, 'data');
      await mkdir(dataDir);
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dataDir]);
      if (mounted.status !== 0) throw new Error(`mount failed: ${String(mounted.stderr)}`);
      cleanup.push(async () => void spawnSync('umount', [dataDir]));
      const s: SimSetup = await startSim({ records: 20_000 });
      cleanup.push(() => s.sim.close());
      const library = await Library.open(dataDir);
      cleanup.push(() => library.close().catch(() => undefined));

      const out = await new JobRunner({ library }).startShipments(
        { filter: { start_date: '2021-01-01', end_date: '2025-12-31' } },
        s.client,
      );
      expect(out.status).toBe('failed');
      expect(out.message).toMatch(/^The disk is full: Portolan could not save to its library\./);
      expect(out.message).toContain('The job can be resumed.');
      expect(out.message).not.toMatch(/IO Error|No space left|\.duckdb/);
      expect(await library.list()).toEqual([]);
    },
    90_000,
  );
});

describe('a fetch job whose library may not be written', () => {
  it.runIf(canFreezeLibrary)(
    'is refused as it starts, in plain words, and the library keeps what it had',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'portolan-frozen-job-'));
      cleanup.push(() => rm(root, { recursive: true, force: true }));
      const dataDir = join(root, 'data');
      await mkdir(dataDir);
      const s: SimSetup = await startSim({ records: 2_000 });
      cleanup.push(() => s.sim.close());
      const library = await Library.open(dataDir);
      cleanup.push(() => library.close().catch(() => undefined));
      freezeLibrary(dataDir);
      cleanup.push(async () => thawLibrary(dataDir));

      // Refused as it starts: its job record cannot be written. What the window is told (the bridge's error).
      const refused = await new JobRunner({ library })
        .startShipments({ filter: { start_date: '2021-01-01', end_date: '2025-12-31' } }, s.client)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(refused).not.toBeNull();
      const said = toBridgeResultError(refused);
      expect(said.kind).toBe('Forbidden');
      expect(said.message).toBe(
        'Portolan may not write to its data folder: the folder or its library file was made read-only, or its permissions changed. What was saved before is intact; make the folder writable again, then try again.',
      );
      expect(await library.list()).toEqual([]);
    },
    90_000,
  );
});
