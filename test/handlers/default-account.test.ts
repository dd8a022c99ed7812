import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import type { UsageReading } from '@shared/query/query-contract';
import type { UsageSummary } from '@shared/spec';
import { startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, type Harness } from './helpers';

// One API key with two accounts: the service charges the first unless a request names another.
const key = { apiKey: 'ak_test_default_account_41f2', apiSecret: 'secret-default-account-9d3e' };
const accounts = [
  { name: 'head-office', ...key },
  { name: 'eu-desk', ...key },
];

let h: Harness;
let sim: RunningSimulator;
let profileId: string;

const downloads = (u: UsageSummary, account: string) => u[account]?.['shipments/search']?.current;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, records: 2_000, seed: 11, accounts });
  h = await createHarness();
  const created = await h.ok<ProfileView>('profiles.create', {
    name: 'EU desk',
    baseUrl: sim.url,
    accountName: 'eu-desk',
    ...key,
  });
  profileId = created.id;
});
afterAll(async () => {
  await h.close();
  await sim.close();
});

describe("a profile's default account", () => {
  it('is charged for a search that names no account', async () => {
    await h.ok('shipments.search', { profileId, request: { size: 25 } });
    const { usage } = await h.ok<UsageReading>('usage.get', { profileId });
    expect(downloads(usage, 'eu-desk')).toBe(25);
    expect(downloads(usage, 'head-office')).toBe(0);
  });

  it('gives way to an account the request names itself', async () => {
    await h.ok('shipments.search', { profileId, request: { size: 10, account_name: 'head-office' } });
    const { usage } = await h.ok<UsageReading>('usage.get', { profileId });
    expect(downloads(usage, 'head-office')).toBe(10);
    expect(downloads(usage, 'eu-desk')).toBe(25);
  });
});
