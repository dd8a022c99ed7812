import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library } from '../../src/main/library';
import { JobRunner, resumableJobs } from '../../src/main/jobs';
import { expectedHashIds, startSim, tempDir, type SimSetup } from './helpers';

let s: SimSetup;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  // Latency makes each request take a while, so the kill lands between committed windows.
  s = await startSim({ records: 30_000, faults: { latencyMs: 150 } });
  ({ dir, cleanup } = await tempDir());
});
afterAll(async () => {
  await s.sim.close();
  await cleanup();
});

const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };

async function consistent(lib: Library, datasetId: string): Promise<{ rows: number; distinct: number }> {
  const r = await lib.reader.one(
    `SELECT count(*) AS n, count(DISTINCT "hashId") AS d, min(row_no) AS lo, max(row_no) AS hi FROM shipment_rows WHERE dataset_id = $1`,
    [datasetId],
  );
  const n = Number(r?.n);
  // Row numbers stay contiguous from 0 across commits (the grid pages by them).
  if (n > 0) expect([Number(r?.lo), Number(r?.hi)]).toEqual([0, n - 1]);
  return { rows: n, distinct: Number(r?.d) };
}

describe('a job killed mid-way', () => {
  it('leaves the library consistent and resumes fetching only the missing windows', async () => {
    const dataDir = join(dir, 'killed');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'fixtures/run-job.ts'), dataDir, s.sim.url, JSON.stringify(filter)],
      {
        cwd: process.cwd(),
        env: { ...process.env, SIM_KEY: s.account.apiKey, SIM_SECRET: s.account.apiSecret },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, sig) => resolve(sig)),
    );
    let windowsAtKill = 0;
    await new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        const msg = JSON.parse(line) as { windowsDone?: number; finished?: string };
        if (msg.finished) reject(new Error('the job finished before it could be killed'));
        if ((msg.windowsDone ?? 0) >= 2 && windowsAtKill === 0) {
          windowsAtKill = msg.windowsDone!;
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () =>
        windowsAtKill ? resolve() : reject(new Error(`child exited early: ${stderr.slice(0, 2000)}`)),
      );
    });
    expect(await exited).toBe('SIGKILL');

    const lib = await Library.open(dataDir);
    try {
      // Nothing half-done is visible; the job is listed as resumable.
      expect(await lib.list()).toEqual([]);
      const runner = new JobRunner({ library: lib });
      const resumable = await resumableJobs(lib);
      expect(resumable).toHaveLength(1);
      expect(resumable[0]).toMatchObject({ kind: 'shipments', status: 'interrupted' });
      const job = await lib.reader.one('SELECT dataset_id, state_json FROM jobs WHERE id = $1', [
        resumable[0]!.id,
      ]);
      const datasetId = String(job?.dataset_id);
      const before = await consistent(lib, datasetId);
      expect(before.rows).toBeGreaterThan(0);
      expect(before.distinct).toBe(before.rows);
      const doneWindows = await lib.reader.all('SELECT window_key FROM job_windows WHERE job_id = $1', [
        resumable[0]!.id,
      ]);
      expect(doneWindows.length).toBeGreaterThanOrEqual(windowsAtKill);

      // Resume: only windows not yet committed are fetched.
      const usageBefore = (await s.client.usage()).acme!['shipments/search']!.current;
      const out = await runner.resume(resumable[0]!.id, s.client);
      expect(out.status).toBe('succeeded');
      const usageAfter = (await s.client.usage()).acme!['shipments/search']!.current;
      const expected = expectedHashIds(s.sim, filter);
      // The resumed run downloaded at most what was missing plus its probes.
      expect(usageAfter - usageBefore).toBeLessThanOrEqual(expected.size - before.rows + 10 * 20);
      const after = await consistent(lib, datasetId);
      expect(after).toEqual({ rows: expected.size, distinct: expected.size });
      const rows = await lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
        datasetId,
      ]);
      expect(new Set(rows.map((r) => String(r.h)))).toEqual(expected);
      expect((await lib.get(datasetId)).status).toBe('complete');
      expect(await resumableJobs(lib)).toEqual([]);
      const windowKeys = await lib.reader.all(
        'SELECT window_key, count(*) AS n FROM job_windows WHERE job_id = $1 GROUP BY 1 HAVING count(*) > 1',
        [out.jobId],
      );
      expect(windowKeys).toEqual([]); // no window fetched twice
    } finally {
      await lib.close();
    }
  }, 120_000);
});

describe('a job that fails', () => {
  it('stays resumable with what it committed, and resume finishes it', async () => {
    const { dir: d2, cleanup: c2 } = await tempDir();
    const lib = await Library.open(d2);
    try {
      s.sim.setFaults(undefined);
      const runner = new JobRunner({ library: lib });
      let failedOnce = false;
      // The service starts failing after the first committed window.
      const out = await runner.startShipments({ filter }, s.client, {
        onProgress: (p) => {
          if (p.windowsDone >= 1 && !failedOnce) {
            failedOnce = true;
            s.sim.setFaults({ errorRate: 1, errorStatuses: [500] });
          }
        },
      });
      expect(out.status).toBe('failed');
      expect(out.message).toMatch(/500/);
      expect(await lib.list()).toEqual([]);
      const [job] = await resumableJobs(lib);
      expect(job).toMatchObject({ id: out.jobId, status: 'failed' });
      s.sim.setFaults(undefined);
      const resumed = await runner.resume(out.jobId, s.client);
      expect(resumed.status).toBe('succeeded');
      const rows = await lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
        resumed.datasetId,
      ]);
      expect(new Set(rows.map((r) => String(r.h)))).toEqual(expectedHashIds(s.sim, filter));
      expect(rows.length).toBe(expectedHashIds(s.sim, filter).size);
    } finally {
      s.sim.setFaults({ latencyMs: 150 });
      await lib.close();
      await c2();
    }
  }, 60_000);
});
