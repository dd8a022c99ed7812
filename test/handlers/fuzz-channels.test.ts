import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS, type CallChannel } from '@shared/ipc/channels';
import { ERROR_KINDS } from '@shared/ipc/errors';
import { createHarness, isBridgeResult, type Harness } from './helpers';

/** One valid input per channel (profile ids are filled in once a profile exists); the near-misses start from these. */
function validSamples(profileId: string): Partial<Record<CallChannel, unknown>> {
  const filter = {
    importer_countries: ['DE'],
    hs_codes: ['8471'],
    start_date: '2024-01-01',
    end_date: '2024-02-01',
  };
  return {
    'app.info': undefined,
    'profiles.list': undefined,
    'profiles.create': {
      name: 'Fuzz',
      baseUrl: 'http://127.0.0.1:9',
      accountName: 'a',
      apiKey: 'key-fuzz-0000',
      apiSecret: 'fuzz-secret',
    },
    'profiles.update': { id: profileId, name: 'Renamed' },
    'profiles.delete': { id: 'no-such-id' },
    'profiles.setActive': { id: profileId },
    'profiles.setCredentials': { id: profileId, apiKey: 'key-fuzz-1111', apiSecret: 'fuzz-secret-2' },
    'profiles.testConnection': { id: profileId },
    'demo.start': undefined,
    'usage.get': {},
    'shipments.search': { profileId, request: { ...filter, size: 10 } },
    'shipments.count': { profileId, request: { ...filter, firm: 'acme-gmbh' } },
    'firms.search': { profileId, request: { ...filter, page: 1 } },
    'firms.count': { request: filter },
  };
}

/** Arbitrary JSON, plus shapes a careless caller sends: near-misses of a valid input. */
function nearMiss(sample: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample) || depth > 2) {
    return fc.oneof(
      fc.jsonValue(),
      fc.constant(sample),
      fc.constantFrom(null, undefined, '', 0, -1, 1e21, NaN, [], {}),
    );
  }
  const obj = sample as Record<string, unknown>;
  const keys = Object.keys(obj);
  const variants: fc.Arbitrary<unknown>[] = [
    fc.constant(obj),
    fc.tuple(fc.string(), fc.jsonValue()).map(([k, v]) => ({ ...obj, [k]: v })),
  ];
  if (keys.length > 0) {
    variants.push(
      fc
        .constantFrom(...keys)
        .map((k) => Object.fromEntries(Object.entries(obj).filter(([key]) => key !== k))),
      fc.constantFrom(...keys).chain((k) => nearMiss(obj[k], depth + 1).map((v) => ({ ...obj, [k]: v }))),
    );
  }
  return fc.oneof(...variants);
}

let h: Harness;
let profileId: string;
beforeAll(async () => {
  h = await createHarness();
  const created = (await h.call('profiles.create', { name: 'Base', baseUrl: 'http://127.0.0.1:9' })) as {
    ok: true;
    value: { id: string };
  };
  profileId = created.value.id;
});
afterAll(async () => {
  await h.close();
});

describe('every channel, fuzzed', () => {
  it.each(CALL_CHANNELS.map((c) => [c]))('%s never throws past the wrapper', async (channel) => {
    const sample = validSamples(profileId)[channel] ?? {};
    const implemented = typeof (h.handlers as Record<string, unknown>)[channel] === 'function';
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.constant(undefined), nearMiss(sample)), async (input) => {
        const r = await h.call(channel, input);
        expect(isBridgeResult(r)).toBe(true);
        const res = r as { ok: boolean; error?: { kind: string } };
        if (!res.ok) {
          expect(ERROR_KINDS).toContain(res.error?.kind);
          // A channel with a service must never fail with an unexplained internal error.
          if (implemented) expect(res.error?.kind).not.toBe('Internal');
        }
        expect(JSON.stringify(r) ?? '').not.toMatch(/fuzz-secret/);
      }),
      { numRuns: 60 },
    );
  });
});
