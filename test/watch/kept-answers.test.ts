import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipmentFilter } from '@shared/spec/filter';
import {
  PREVIEW_TTL_MS,
  createWatchService,
  type WatchContext,
  type WatchService,
} from '../../src/main/watch';
import { openSimAndLibrary, type SimAndLibrary } from '../jobs/helpers';
import { charged } from './service-truth';

/*
 * How long a cost check's answers are used again, and for which question: a window's answer is the
 * service's as of when it gave it, so it prices a later check only while a fresh check would still be
 * good (PREVIEW_TTL_MS from that answer), and only for the same service, profile and account.
 */

const QUERY: ShipmentFilter = { start_date: '2025-03-01' };
let env: SimAndLibrary;
let watch: WatchService;
let clock = Date.parse('2025-06-01T08:00:00Z');

beforeAll(async () => {
  env = await openSimAndLibrary({ asOf: '2025-06-01', records: 4_000 });
  watch = createWatchService(env.lib, { now: () => clock });
});
afterAll(() => env.close());

const ctx = (over: Partial<WatchContext> = {}): WatchContext => ({
  source: env.s.client,
  profileId: 'p1',
  profileName: 'Main',
  account: null,
  serviceUrl: env.s.sim.url,
  ...over,
});

describe('a cost check asked again', () => {
  it('uses an answer while it is younger than a check is good for, and says until when the cost holds', async () => {
    const answeredAt = clock;
    let before = await charged(env.s);
    const first = await watch.preview({ request: QUERY }, ctx());
    expect(await charged(env.s)).toBe(before + 10);
    expect(first.checkReused).toBe(0);

    clock += PREVIEW_TTL_MS - 60_000;
    before = await charged(env.s);
    const again = await watch.preview({ request: QUERY }, ctx());
    expect(await charged(env.s)).toBe(before);
    expect(again.checkReused).toBe(1);
    expect(again.windows).toEqual(first.windows);
    // Good until the answer it prices from is as old as a check may be, not ten minutes from now.
    expect(Date.parse(again.expiresAt)).toBe(answeredAt + PREVIEW_TTL_MS);

    clock += 2 * 60_000;
    before = await charged(env.s);
    const later = await watch.preview({ request: QUERY }, ctx());
    expect(await charged(env.s)).toBe(before + 10);
    expect(later.checkReused).toBe(0);
    expect(Date.parse(later.expiresAt)).toBe(clock + PREVIEW_TTL_MS);
  });

  it('is another question for another profile, account or service address: asked again', async () => {
    await watch.preview({ request: QUERY }, ctx());
    for (const other of [{ profileId: 'p2' }, { account: 'other' }, { serviceUrl: 'http://127.0.0.1:1/' }]) {
      const before = await charged(env.s);
      const p = await watch.preview({ request: QUERY }, ctx(other));
      expect(p.checkReused).toBe(0);
      expect(await charged(env.s)).toBe(before + 10);
    }
  });
});
