import { afterEach, describe, expect, it } from 'vitest';
import { USAGE_METRICS, type UsageSummary } from '@shared/spec';
import type { RunningSimulator, SimAccount } from '../../src/main/sim';
import { PATHS, call, ok, start } from './helpers';

const MAIN: SimAccount = { name: 'main', apiKey: 'k-1', apiSecret: 's-1' };
const EU: SimAccount = { name: 'eu', apiKey: 'k-1', apiSecret: 's-1' };
const OTHER: SimAccount = { name: 'other', apiKey: 'k-2', apiSecret: 's-2' };

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function usage(s: RunningSimulator, account = MAIN): Promise<UsageSummary> {
  const r = await call(s, PATHS.usage, undefined, { account });
  expect(r.status).toBe(200);
  return r.json as UsageSummary;
}

describe('usage accounting', () => {
  it('counts every metric and reports all of the caller’s accounts only', async () => {
    sim = await start({ records: 3000, accounts: [MAIN, EU, OTHER] });
    const s = sim;
    const search = await ok<{ shipments: unknown[] }>(
      s,
      PATHS.shipmentSearch,
      { size: 25, hs_codes: ['84', '85'] },
      MAIN,
    );
    expect(search.shipments).toHaveLength(25);
    await ok(s, PATHS.shipmentSearch, { size: 10, hs_codes: ['84'], importer_firm: 'zzzzqqq' }, MAIN); // 0 returned
    const firms = await ok<{ firms_count: number }>(s, PATHS.firmSearch, { page: 1, hs_codes: ['61'] }, MAIN);
    await ok(s, PATHS.firmCount, { hs_codes: ['0101'] }, MAIN);
    await ok(s, PATHS.shipmentCount, { firm: 'x' }, MAIN);
    await ok(s, PATHS.shipmentCount, { firm: 'x', account_name: 'eu' }, EU);
    await ok(s, PATHS.firmCount, {}, OTHER);

    const u = await usage(s);
    expect(Object.keys(u).sort()).toEqual(['eu', 'main']);
    const main = u.main as UsageSummary[string];
    expect(Object.keys(main).sort()).toEqual([...USAGE_METRICS].sort());
    expect(main['shipments/search']).toEqual({ current: 25, limit: -1, notes: 'unlimited' });
    expect(main['firms/search']?.current).toBe(firms.firms_count);
    expect(main['firms/count']?.current).toBe(1);
    expect(main['shipments/count']?.current).toBe(1);
    expect(main.searchedHsCodes?.current).toBe(4);
    expect(main.searchedHsCodes?.notes?.split(',').sort()).toEqual(['0101', '61', '84', '85']);
    // 6 requests before this usage call, which counts too.
    expect(main.dailyRequest?.current).toBe(6);
    expect(main.minutelyRequest?.current).toBe(6);
    expect(u.eu?.['shipments/count']?.current).toBe(1);
    expect(u.eu?.dailyRequest?.current).toBe(1);
    const other = await usage(s, OTHER);
    expect(Object.keys(other)).toEqual(['other']);
    expect(other.other?.['firms/count']?.current).toBe(1);
  });

  it('does not count a request that failed authentication or validation', async () => {
    sim = await start({ records: 1000, accounts: [MAIN] });
    await call(sim, PATHS.shipmentSearch, JSON.stringify({ size: 1 }), { account: MAIN });
    await call(sim, PATHS.shipmentSearch, JSON.stringify({ size: 10 }), {
      account: { ...MAIN, apiSecret: 'x' },
    });
    const u = await usage(sim);
    expect(u.main?.dailyRequest?.current).toBe(1); // only the usage call itself
    expect(u.main?.['shipments/search']?.current).toBe(0);
  });
});

describe('limits', () => {
  it('refuses a search that would pass the download limit with 429, counting nothing', async () => {
    sim = await start({ records: 3000, accounts: [{ ...MAIN, limits: { 'shipments/search': 30 } }] });
    await ok(sim, PATHS.shipmentSearch, { size: 20 }, MAIN);
    const over = await call(sim, PATHS.shipmentSearch, JSON.stringify({ size: 11 }), { account: MAIN });
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ error: 'limit_exceeded', metric: 'shipments/search' });
    expect(over.headers.get('retry-after')).toBeNull();
    await ok(sim, PATHS.shipmentSearch, { size: 10 }, MAIN); // exactly reaches the limit
    const u = await usage(sim);
    expect(u.main?.['shipments/search']).toEqual({ current: 30, limit: 30 });
    expect(u.main?.dailyRequest?.current).toBe(3); // the refused one is not counted
  });

  it('charges only what is returned: a search that matches fewer records than size fits', async () => {
    sim = await start({ records: 3000, accounts: [{ ...MAIN, limits: { 'shipments/search': 5 } }] });
    const r = await ok<{ total: number }>(
      sim,
      PATHS.shipmentSearch,
      { size: 10, importer_firm: 'zzzzqqq' },
      MAIN,
    );
    expect(r.total).toBe(0);
    expect(
      (await call(sim, PATHS.shipmentSearch, JSON.stringify({ size: 10 }), { account: MAIN })).status,
    ).toBe(429);
  });

  it('limits the distinct HS codes; codes already searched stay allowed', async () => {
    sim = await start({ records: 1000, accounts: [{ ...MAIN, limits: { searchedHsCodes: 2 } }] });
    await ok(sim, PATHS.firmCount, { hs_codes: ['84', '85'] }, MAIN);
    await ok(sim, PATHS.firmCount, { hs_codes: ['85'] }, MAIN);
    const r = await call(sim, PATHS.firmCount, JSON.stringify({ hs_codes: ['85', '61'] }), { account: MAIN });
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ metric: 'searchedHsCodes' });
    const u = await usage(sim);
    expect(u.main?.searchedHsCodes).toEqual({ current: 2, limit: 2, notes: '84,85' });
    expect(u.main?.['firms/count']?.current).toBe(2);
  });

  it('applies the per-minute window (rolling 60 s) with Retry-After', async () => {
    let t = Date.UTC(2025, 4, 1, 12, 0, 0);
    sim = await start({
      records: 1000,
      now: () => t,
      accounts: [{ ...MAIN, limits: { minutelyRequest: 2 } }],
    });
    await ok(sim, PATHS.firmCount, {}, MAIN);
    t += 20_000;
    await ok(sim, PATHS.firmCount, {}, MAIN);
    t += 10_000;
    const r = await call(sim, PATHS.firmCount, '{}', { account: MAIN });
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ error: 'limit_exceeded', metric: 'minutelyRequest' });
    expect(r.headers.get('retry-after')).toBe('30'); // the first request leaves the window at +60 s
    t += 30_000;
    expect((await call(sim, PATHS.firmCount, '{}', { account: MAIN })).status).toBe(200);
    expect((await call(sim, PATHS.usage, undefined, { account: MAIN })).status).toBe(429); // usage calls count too
  });

  it('applies the daily window (UTC day) with Retry-After until midnight', async () => {
    let t = Date.UTC(2025, 4, 1, 23, 59, 0);
    sim = await start({ records: 1000, now: () => t, accounts: [{ ...MAIN, limits: { dailyRequest: 1 } }] });
    await ok(sim, PATHS.firmCount, {}, MAIN);
    const r = await call(sim, PATHS.firmCount, '{}', { account: MAIN });
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ metric: 'dailyRequest' });
    expect(r.headers.get('retry-after')).toBe('60');
    t += 60_000;
    const u = await usage(sim);
    expect(u.main?.dailyRequest).toEqual({ current: 1, limit: 1 }); // the usage call itself, on the new day
  });

  it('checks limits only after validation, and charges the account named by account_name', async () => {
    sim = await start({
      records: 1000,
      accounts: [{ ...MAIN, limits: { 'firms/count': 0 } }, EU],
    });
    const invalid = await call(sim, PATHS.firmCount, JSON.stringify({ product_detail: 'x' }), {
      account: MAIN,
    });
    expect(invalid.status).toBe(400);
    expect((await call(sim, PATHS.firmCount, '{}', { account: MAIN })).status).toBe(429);
    await ok(sim, PATHS.firmCount, { account_name: 'eu' }, MAIN);
    const u = await usage(sim);
    expect(u.main?.['firms/count']).toEqual({ current: 0, limit: 0 });
    expect(u.eu?.['firms/count']?.current).toBe(1);
  });

  it('rejects bad account configuration', async () => {
    await expect(start({ accounts: [] })).rejects.toThrow(/at least one account/);
    await expect(start({ accounts: [MAIN, { ...EU, apiSecret: 'different' }] })).rejects.toThrow(/apiSecret/);
    await expect(start({ accounts: [{ ...MAIN, limits: { 'firms/count': -2 } }] })).rejects.toThrow(/limit/);
  });
});
