import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileView } from '@shared/ipc/contract';
import type { DatasetView } from '@shared/library/library-contract';
import type { UsageSummary } from '@shared/spec';
import { startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, type Harness } from './helpers';

/**
 * Cancel of a plain search, through the real dispatcher, services and simulator: main aborts the
 * request it is waiting on, so a search the service has not answered yet costs nothing and leaves
 * nothing in the library; once the answer is in, cancelling changes nothing.
 */
const account = { name: 'main', apiKey: 'ak_test_cancel_77c1', apiSecret: 'secret-cancel-2b9e' };

type Result<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string } };

let h: Harness;
let sim: RunningSimulator;
let profileId: string;

async function call<T>(channel: string, input?: unknown): Promise<T> {
  const r = (await h.call(channel, input)) as Result<T>;
  if (!r.ok) throw new Error(`${channel}: ${r.error.kind}: ${r.error.message}`);
  return r.value;
}
const downloads = async () => (await call<UsageSummary>('usage.get', { profileId })).main?.['shipments/search']?.current;
const datasets = async () => (await call<DatasetView[]>('library.list', {})).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, records: 500, seed: 5, accounts: [account] });
  h = await createHarness();
  const created = await call<ProfileView>('profiles.create', { name: 'Cancel', baseUrl: sim.url, apiKey: account.apiKey, apiSecret: account.apiSecret });
  profileId = created.id;
});
afterAll(async () => {
  await h?.close();
  await sim?.close();
});

describe('cancelling a plain search', () => {
  it('stops a search the service has not answered: Cancelled, nothing counted, nothing saved', async () => {
    const usedBefore = await downloads();
    const savedBefore = await datasets();
    sim.setFaults({ latencyMs: 1_500 });
    try {
      const searching = h.call('shipments.search', { profileId, callId: 'call-1', request: { size: 100 } }) as Promise<Result<unknown>>;
      await sleep(300);
      expect(await h.call('queries.cancel', { callId: 'call-1' })).toEqual({ ok: true, value: undefined });
      const r = await searching;
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.kind).toBe('Cancelled');
      // Past the simulator's delay: a request that was still counted would show by now.
      await sleep(1_800);
    } finally {
      sim.setFaults(undefined);
    }
    expect(await downloads()).toBe(usedBefore);
    expect(await datasets()).toBe(savedBefore);
  });

  it('changes nothing once the answer has arrived: the result counts and stays in the library', async () => {
    const usedBefore = (await downloads()) ?? 0;
    const savedBefore = await datasets();
    const r = await call<{ shipments: unknown[]; datasetId: string | null }>('shipments.search', { profileId, callId: 'call-2', request: { size: 20 } });
    expect(await h.call('queries.cancel', { callId: 'call-2' })).toEqual({ ok: true, value: undefined });
    expect(r.shipments.length).toBe(20);
    expect(r.datasetId).toEqual(expect.any(String));
    expect(await downloads()).toBe(usedBefore + 20);
    expect(await datasets()).toBe(savedBefore + 1);
  });

  it('cancels only the call it names', async () => {
    const usedBefore = (await downloads()) ?? 0;
    sim.setFaults({ latencyMs: 500 });
    try {
      const searching = h.call('shipments.search', { profileId, callId: 'call-3', request: { size: 10 } }) as Promise<Result<{ shipments: unknown[] }>>;
      await sleep(100);
      await h.call('queries.cancel', { callId: 'another-call' });
      const r = await searching;
      expect(r.ok && r.value.shipments.length).toBe(10);
    } finally {
      sim.setFaults(undefined);
    }
    expect(await downloads()).toBe(usedBefore + 10);
  });
});
