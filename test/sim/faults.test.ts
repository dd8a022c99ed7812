import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/main/sim';
import { PATHS, call, start } from './helpers';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start({ records: 1000 });
});
afterAll(() => sim.close());
beforeEach(() => sim.setFaults(undefined));

const search = JSON.stringify({ size: 10 });
const statuses = async (n: number): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(sim, PATHS.shipmentSearch, search)).status);
  return out;
};

describe('fault injection', () => {
  it('answers 500/503 at errorRate 1, and nothing is counted', async () => {
    sim.setFaults({ errorRate: 1 });
    const got = await statuses(20);
    expect(new Set(got)).toEqual(new Set([500, 503]));
    sim.setFaults({ errorRate: 1, errorStatuses: [503] });
    expect(await statuses(3)).toEqual([503, 503, 503]);
    sim.setFaults(undefined);
    const u = (await call(sim, PATHS.usage)).json as Record<string, Record<string, { current: number }>>;
    expect(u.alice?.['shipments/search']?.current).toBe(0);
  });

  it('fails a share of requests near errorRate, the same ones for the same seed', async () => {
    sim.setFaults({ errorRate: 0.3, seed: 42 });
    const a = await statuses(60);
    sim.setFaults({ errorRate: 0.3, seed: 42 });
    const b = await statuses(60);
    sim.setFaults({ errorRate: 0.3, seed: 43 });
    const c = await statuses(60);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const failed = a.filter((s) => s >= 500).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
  });

  it('sends 429 bursts with Retry-After', async () => {
    sim.setFaults({ burst429: { every: 4, count: 2 } });
    expect(await statuses(8)).toEqual([200, 200, 429, 429, 200, 200, 429, 429]);
    sim.setFaults({ burst429: { every: 4, count: 2 } });
    await statuses(2);
    const r = await call(sim, PATHS.shipmentSearch, search);
    expect(r.headers.get('retry-after')).toBe('1');
    // A longer wait, as a per-minute limit gives: more than a client waits out by itself.
    sim.setFaults({ burst429: { every: 1, count: 1, retryAfter: 40 } });
    const long = await call(sim, PATHS.shipmentSearch, search);
    expect(long.status).toBe(429);
    expect(long.headers.get('retry-after')).toBe('40');
  });

  it('spoils 200 bodies: invalid JSON or truncated, with a matching Content-Length', async () => {
    const good = await call(sim, PATHS.shipmentSearch, search);
    sim.setFaults({ invalidJsonRate: 1 });
    const bad = await call(sim, PATHS.shipmentSearch, search);
    expect(bad.status).toBe(200);
    expect(() => JSON.parse(bad.text)).toThrow();
    sim.setFaults({ truncateRate: 1 });
    const cut = await call(sim, PATHS.shipmentSearch, search);
    expect(cut.status).toBe(200);
    expect(() => JSON.parse(cut.text)).toThrow();
    expect(good.text.startsWith(cut.text)).toBe(true);
    expect(Number(cut.headers.get('content-length'))).toBe(Buffer.byteLength(cut.text));
    // Error answers stay intact so that a client can still read why it failed.
    const r = await call(sim, PATHS.shipmentSearch, JSON.stringify({ size: 1 }));
    expect(r.json).toMatchObject({ error: 'invalid_request' });
  });

  it('drops connections without a response', async () => {
    sim.setFaults({ dropRate: 1 });
    await expect(call(sim, PATHS.shipmentSearch, search)).rejects.toThrow();
    sim.setFaults(undefined);
    expect((await call(sim, PATHS.shipmentSearch, search)).status).toBe(200);
  });

  it('adds latency', async () => {
    sim.setFaults({ latencyMs: 150 });
    const t0 = performance.now();
    const r = await call(sim, PATHS.shipmentSearch, search);
    expect(r.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('rejects impossible settings', () => {
    expect(() => sim.setFaults({ errorRate: 2 })).toThrow(/errorRate/);
    expect(() => sim.setFaults({ errorStatuses: [404] })).toThrow(/5xx/);
    expect(() => sim.setFaults({ burst429: { every: 2, count: 3 } })).toThrow(/burst429/);
    expect(() => sim.setFaults({ burst429: { every: 2, count: 1, retryAfter: 1.5 } })).toThrow(
      /burst429\.retryAfter/,
    );
  });

  it('closes cleanly while a delayed response is pending', async () => {
    const other = await start({ records: 100, faults: { latencyMs: 5000 } });
    const pending = call(other, PATHS.shipmentSearch, search).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    await other.close();
    expect(performance.now() - t0).toBeLessThan(4000); // not the 5 s of the pending delay
    expect(await pending).toBeInstanceOf(Error);
  });
});
