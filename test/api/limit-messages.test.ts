import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, ServiceClientError, UsageLedger } from '../../src/main/api';
import { hsCodesOverrunError } from '../../src/main/api/errors';
import { generateAccount, startSimulator, type RunningSimulator } from '../../src/main/sim';
import { startStrictServer, type StrictServer } from '../helpers/strict-server';

const KEY = 'pk_live_1234567890ABCD';
const SECRET = 'sk-Portolan-secret-value-0042';
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ apiKey: KEY, apiSecret: SECRET });
});
afterAll(async () => {
  await server.close();
});

/** The message the analyst reads when the service answers a firm count with this 429. */
async function say(body: object, retryAfter?: number): Promise<string> {
  server.script({
    status: 429,
    json: body,
    ...(retryAfter !== undefined ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
  });
  const c = createServiceClient({
    baseUrl: server.url,
    credentials: { apiKey: KEY, apiSecret: SECRET },
    retry: { maxAttempts: 1 },
  });
  const e: unknown = await c.firmCount({}).then(
    () => {
      throw new Error('the call succeeded');
    },
    (err: unknown) => err,
  );
  if (!(e instanceof ServiceClientError) || e.kind !== 'LimitExceeded') throw e;
  return e.message;
}
const refusal = (metric?: string) => ({ error: 'limit_exceeded', ...(metric ? { metric } : {}) });

describe('429 messages: the metric as the analyst reads it, and the remedy that fits it', () => {
  it('per minute: wait, for as long as the service says, or a minute', async () => {
    expect(await say(refusal('minutelyRequest'), 12)).toBe(
      'Requests this minute limit reached (429). The account has made all the requests it may make in one minute. Try again in 12 s.',
    );
    const bare = await say(refusal('minutelyRequest'));
    expect(bare).toContain('Wait a minute and try again.');
    expect(bare).not.toContain('does not reset');
  });

  it('per day: tomorrow, never "waiting will not help"', async () => {
    const withWait = await say(refusal('dailyRequest'), 5 * 3600);
    expect(withWait).toMatch(
      /^Requests today limit reached \(429\)\. .*try again tomorrow.* Try again in 5 h\.$/,
    );
    const bare = await say(refusal('dailyRequest'));
    expect(bare).toContain('try again tomorrow, when the daily count starts again');
    expect(bare).not.toContain('Waiting will not help');
  });

  it('downloads: fewer records (shipments) or a narrower filter (firms); waiting does not help', async () => {
    const shipments = await say(refusal('shipments/search'));
    expect(shipments).toMatch(
      /^Shipment search \(downloads\) limit reached \(429\)\. Too few shipment downloads/,
    );
    expect(shipments).toContain('ask for fewer records');
    expect(shipments).toContain('Waiting will not help');
    const firms = await say(refusal('firms/search'));
    expect(firms).toMatch(/^Firm search \(downloads\) limit reached \(429\)\./);
    expect(firms).toContain('narrow the filter so fewer firms match');
    expect(firms).not.toContain('fewer records');
  });

  it('counts: no more counting without a higher limit, nothing about records or waiting it out', async () => {
    for (const [metric, label] of [
      ['shipments/count', 'Shipment count'],
      ['firms/count', 'Firm count'],
    ] as const) {
      const m = await say(refusal(metric));
      expect(m).toMatch(new RegExp(`^${label} limit reached \\(429\\)\\.`));
      expect(m).toContain('have the limit raised');
      expect(m).not.toContain('fewer records');
      expect(m).not.toMatch(/Try again in/);
    }
  });

  it('searched HS codes: reuse codes already searched, not fewer records', async () => {
    const m = await say(refusal('searchedHsCodes'));
    expect(m).toMatch(/^Distinct HS codes searched limit reached \(429\)\./);
    expect(m).toContain('search only HS codes it has searched already (the Usage page lists them)');
    expect(m).not.toContain('fewer records');
  });

  it('a refusal that names no metric names no download either', async () => {
    expect(await say({}, 30)).toBe('Request limit reached (429). Try again in 30 s.');
    expect(await say({})).toBe(
      'Request limit reached (429). Wait a while and try again; the Usage page shows what is left of your limits.',
    );
    const used = await say({ error: 'limit_exceeded' });
    expect(used).toMatch(/^Usage limit reached \(429\)\. Waiting will not help/);
    expect(used).not.toMatch(/download|fewer records/i);
  });

  it('a metric the app has no words for keeps the service’s own', async () => {
    const m = await say({
      error: 'limit_exceeded',
      metric: 'monthlyExports',
      message: 'monthlyExports: 10 of 10',
    });
    expect(m).toContain('monthlyExports limit reached (429).');
    expect(m).toContain('The service said: monthlyExports: 10 of 10.');
  });
});

describe('searched HS codes: every call that names them is checked before it is sent', () => {
  const sims: RunningSimulator[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  async function setup() {
    const account = { ...generateAccount('acme'), limits: { searchedHsCodes: 2 } };
    const sim = await startSimulator({ port: 0, records: 2_000, seed: 3, accounts: [account] });
    sims.push(sim);
    const c = createServiceClient({
      baseUrl: sim.url,
      credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
      retry: { maxAttempts: 1 },
      usageLedger: new UsageLedger(),
    });
    // A bare client reads the service's own figures (no ledger in between).
    const truth = createServiceClient({
      baseUrl: sim.url,
      credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
    });
    const served = async () => (await truth.usage()).acme!;
    return { c, served };
  }

  it('firm pages, counts and searches alike: refused before sending, in the analyst’s words', async () => {
    const { c, served } = await setup();
    await c.usage();
    await c.firmCount({ hs_codes: ['8471'], account_name: 'acme' });
    // One new code with one left: sent.
    await c.firmSearch({ hs_codes: ['8471', '8517'], page: 1, account_name: 'acme' });
    // Codes already searched cost nothing: sent, from any operation.
    await c.shipmentSearch({ size: 10, hs_codes: ['8517', '8471'], account_name: 'acme' });
    const before = await served();
    expect(before.searchedHsCodes!.current).toBe(2);

    const calls: [string, () => Promise<unknown>][] = [
      ['firm page', () => c.firmSearch({ hs_codes: ['8471', '8501'], page: 2, account_name: 'acme' })],
      ['firm count', () => c.firmCount({ hs_codes: ['8501'], account_name: 'acme' })],
      [
        'shipment count',
        () => c.shipmentCount({ firm: 'ANY-FIRM-CODE', hs_codes: ['8501', '9403'], account_name: 'acme' }),
      ],
      ['shipment search', () => c.shipmentSearch({ size: 10, hs_codes: ['8501'], account_name: 'acme' })],
    ];
    for (const [what, call] of calls) {
      const e = await call().then(
        () => {
          throw new Error(`${what} was sent`);
        },
        (err: unknown) => err,
      );
      expect(e, what).toBeInstanceOf(ServiceClientError);
      const err = e as ServiceClientError;
      expect(err.kind, what).toBe('LimitExceeded');
      expect(err.metric, what).toBe('searchedHsCodes');
      expect(err.message, what).toMatch(
        /^Not sent: HS codes? (8501|8501, 9403) (is|are) new to account acme, which may search 2 distinct HS codes and has none left/,
      );
      expect(err.message, what).toContain('use HS codes already searched (the Usage page lists them)');
      expect(err.message, what).not.toContain('fewer records');
    }
    // Nothing of those reached the service: its request count moved only by the reads above.
    const after = await served();
    expect(after.dailyRequest!.current).toBe(before.dailyRequest!.current + 1);
    expect(after.searchedHsCodes!.current).toBe(2);
  });
});

describe('the HS-code allowance message', () => {
  it('names an allowance of one code in the singular', () => {
    const one = hsCodesOverrunError({ account: 'acme', fresh: ['8501', '9403'], left: 1, limit: 1 });
    expect(one.message).toMatch(/which may search 1 distinct HS code and has 1 left/);
    const two = hsCodesOverrunError({ account: 'acme', fresh: ['8501'], left: 0, limit: 2 });
    expect(two.message).toMatch(
      /^Not sent: HS code 8501 is new to account acme, which may search 2 distinct HS codes and has none left/,
    );
  });
});
