import { describe, expect, it } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import { UsageLedger } from '../../src/main/api';

const m = (current: number, limit = -1, notes?: string) => ({
  current,
  limit,
  ...(notes !== undefined ? { notes } : limit === -1 ? { notes: 'unlimited' } : {}),
});

function summary(over: Partial<Record<string, ReturnType<typeof m>>> = {}): UsageSummary {
  return {
    desk: {
      'shipments/search': m(100, 1_000),
      'shipments/count': m(0),
      'firms/search': m(0),
      'firms/count': m(0),
      searchedHsCodes: m(1, 3, '8471'),
      dailyRequest: m(10, 500),
      minutelyRequest: m(4, 60),
      ...over,
    },
    spare: { dailyRequest: m(0, 500), minutelyRequest: m(0, 60), 'shipments/search': m(0) },
  } as UsageSummary;
}

function setup(start = Date.UTC(2026, 10, 23, 23, 58, 0)) {
  let t = start;
  const ledger = new UsageLedger(() => t);
  let reads = 0;
  const fetch = async () => {
    reads++;
    return summary();
  };
  return { ledger, fetch, reads: () => reads, tick: (ms: number) => (t += ms) };
}

describe('UsageLedger', () => {
  it('reads the service once a minute, sharing one read among callers who ask together', async () => {
    const s = setup();
    await Promise.all([s.ledger.read(s.fetch), s.ledger.read(s.fetch), s.ledger.read(s.fetch)]);
    expect(s.reads()).toBe(1);
    s.tick(59_000);
    await s.ledger.read(s.fetch);
    expect(s.reads()).toBe(1);
    s.tick(1_000);
    await s.ledger.read(s.fetch);
    expect(s.reads()).toBe(2);
    await s.ledger.read(s.fetch, { fresh: true });
    expect(s.reads()).toBe(3);
  });

  it('adds what each answer spent to the account it was charged to, as the service counts it', async () => {
    const s = setup();
    await s.ledger.read(s.fetch);
    s.ledger.answered({
      op: 'shipmentSearch',
      request: { size: 50, hs_codes: ['8471', '8517'] },
      response: { total: 900, shipments: new Array(42).fill({}) },
    });
    s.ledger.answered({ op: 'firmCount', request: { account_name: 'spare' }, response: { firm_count: 3 } });
    const u = s.ledger.current()!;
    expect(u.desk!['shipments/search']!.current).toBe(142);
    expect(u.desk!.searchedHsCodes).toEqual({ current: 2, limit: 3, notes: '8471,8517' });
    expect(u.desk!.dailyRequest!.current).toBe(11);
    expect(u.desk!.minutelyRequest!.current).toBe(5);
    expect(u.spare!.dailyRequest!.current).toBe(1);
    // A usage call is a request too.
    s.ledger.answered({ op: 'usage', request: undefined, response: summary() });
    expect(s.ledger.current()!.desk!.dailyRequest!.current).toBe(12);
  });

  it('lets the service’s minute pass, and starts a new day at 00:00 UTC', async () => {
    const s = setup();
    await s.ledger.read(s.fetch);
    s.tick(30_000);
    s.ledger.answered({ op: 'shipmentCount', request: { firm: 'x' }, response: { shipment_count: 1 } });
    expect(s.ledger.current()!.desk!.minutelyRequest!.current).toBe(5);
    s.tick(31_000); // The read's minute is over; the count is 31 s old.
    expect(s.ledger.current()!.desk!.minutelyRequest!.current).toBe(1);
    s.tick(60_000); // 00:00:01 UTC the next day.
    const u = s.ledger.current()!;
    expect(u.desk!.minutelyRequest!.current).toBe(0);
    expect(u.desk!.dailyRequest!.current).toBe(0);
  });

  it('does not vouch for figures after an unreadable answer or an unforeseen refusal', async () => {
    const s = setup();
    await s.ledger.read(s.fetch);
    s.ledger.answered({ op: 'shipmentSearch', request: { size: 10 }, response: null });
    expect(s.ledger.current()).toBeNull();
    await s.ledger.read(s.fetch);
    expect(s.reads()).toBe(2);
    s.ledger.refused();
    expect(s.ledger.current()).toBeNull();
    await s.ledger.read(s.fetch);
    expect(s.reads()).toBe(3);
  });
});
