import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetView } from '@shared/library/library-contract';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import {
  SEARCH_HEAD_ROWS,
  type ShipmentSearchAnswer,
  type ShipmentSearchHead,
} from '@shared/query/query-contract';
import { startStrictServer, type StrictServer } from '../helpers/strict-server';
import { shipment } from '../library/helpers';
import { createHarness, type Harness } from './helpers';

/**
 * A search's answer on the app's own path: the handler asks the signed client, which parses and checks
 * the body once, and the library stores that checked answer. What the client refuses never reaches the
 * library.
 */
const credentials = { apiKey: 'ak_search_ingest_5c1d', apiSecret: 'secret-search-ingest-77a0' };
const request = { hs_codes: ['7208'], start_date: '2024-01-01', end_date: '2024-06-30', size: 5000 };

let h: Harness;
let server: StrictServer;
let profileId: string;

beforeAll(async () => {
  server = await startStrictServer(credentials);
  h = await createHarness();
  profileId = (
    await h.ok<ProfileView>('profiles.create', { name: 'Strict', baseUrl: server.url, ...credentials })
  ).id;
});
afterAll(async () => {
  await h.close();
  await server.close();
});

const datasets = async () => h.ok<DatasetView[]>('library.list');

describe('shipments.search stores its answer once', () => {
  it('parses, checks and stores a response body as one dataset; a cut-off body stores nothing', async () => {
    const body = JSON.stringify({ total: 2, shipments: [shipment(1), shipment(2)] });
    server.script({ raw: body });
    const answer = await h.ok<{ total: number; datasetId: string | null }>('shipments.search', {
      profileId,
      request,
    });
    expect(answer.total).toBe(2);
    const saved = await h.ok<DatasetView>('library.get', { id: answer.datasetId });
    expect(saved.storedRows).toBe(2);

    server.script({ truncate: body.slice(0, 100) });
    const cut = await h.call('shipments.search', { profileId, request });
    expect(cut).toMatchObject({ ok: false, error: { kind: 'BadResponse' } });
    expect((await datasets()).length).toBe(1);
  });

  it('stores every field as the answer wrote it: the grid reads the records back, in order and sorted by value', async () => {
    const values = [
      { fobValue: '1,234.50', productDetails: 'São Paulo — Ünïcode 😀', cifValue: '' },
      { fobValue: '-', productDetails: 'quote " backslash \\ line\nbreak', cifValue: 'n/a' },
      { fobValue: '12.5', productDetails: '北京贸易', cifValue: '7' },
    ];
    const records = Array.from({ length: 2100 }, (_, i) => shipment(i, values[i % values.length]));
    server.script({ raw: JSON.stringify({ total: 2100, shipments: records }) });
    const { datasetId: id } = await h.ok<{ datasetId: string }>('shipments.search', { profileId, request });
    const tail = await h.ok<{ rows: Record<string, unknown>[]; lastRow: number }>('library.getRows', {
      id,
      startRow: 2040,
      endRow: 2100,
    });
    expect(tail.lastRow).toBe(2100);
    const shown = (v: unknown) => (v === null || v === undefined ? '' : v);
    const fields = ['hashId', 'fobValue', 'cifValue', 'productDetails', 'arrivalDate'] as const;
    expect(tail.rows.map((r) => fields.map((f) => shown(r[f])))).toEqual(
      records.slice(2040).map((r) => fields.map((f) => r[f])),
    );
    // 700 records of each value: the highest first, text that is no number ("-") last.
    const sorted = async (startRow: number) =>
      (
        await h.ok<{ rows: Record<string, unknown>[] }>('library.getRows', {
          id,
          startRow,
          endRow: startRow + 2,
          sortModel: [{ colId: 'fobValue', sort: 'desc' }],
        })
      ).rows.map((r) => r.fobValue);
    expect(await sorted(699)).toEqual(['1,234.50', '12.5']);
    expect(await sorted(1399)).toEqual(['12.5', '-']);
  });

  it('refuses a response whose bad record comes after whole chunks, naming it, and stores nothing', async () => {
    const before = (await datasets()).length;
    const records: Record<string, unknown>[] = Array.from({ length: 5000 }, (_, i) => shipment(i));
    records[4321] = { ...shipment(4321), usdCif: 12.5 };
    server.script({ raw: JSON.stringify({ total: 5000, shipments: records }) });
    const refused = await h.call('shipments.search', { profileId, request });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        kind: 'BadResponse',
        message: expect.stringContaining('response.shipments[4321].usdCif') as unknown,
      },
    });
    expect((await datasets()).length).toBe(before);
  });
});

describe('a search’s first rows, announced before its answer is parsed', () => {
  /** The `shipments.head` events of this harness from now on, and a hook called as each is emitted. */
  function heads(onHead?: (head: ShipmentSearchHead) => void): ShipmentSearchHead[] {
    const seen: ShipmentSearchHead[] = [];
    const push = h.events.push.bind(h.events);
    h.events.push = (...items) => {
      for (const { event, payload } of items) {
        if (event !== 'shipments.head') continue;
        seen.push(payload as ShipmentSearchHead);
        onHead?.(payload as ShipmentSearchHead);
      }
      return push(...items);
    };
    return seen;
  }
  afterEach(() => {
    // The hook above is the harness's own push again.
    Reflect.deleteProperty(h.events, 'push');
  });

  const headColumns = ['hashId', 'importerName', 'fobValue'];

  it('gives the rows the answer then gives, and a read of its dataset waits for the save instead of failing', async () => {
    const records = Array.from({ length: 450 }, (_, i) => shipment(i));
    server.script({ raw: JSON.stringify({ total: 450, shipments: records }) });
    let early: Promise<unknown> | undefined;
    const seen = heads((head) => {
      // The window asks for the next block the moment it has the head, before the save has begun.
      early = h.call('library.getRows', { id: head.datasetId, startRow: 200, endRow: 260 });
    });
    const answer = await h.ok<ShipmentSearchAnswer>('shipments.search', {
      profileId,
      request,
      headId: 'run-1',
      headColumns,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      headId: 'run-1',
      datasetId: answer.datasetId,
      total: 450,
      returned: 450,
      head: answer.head,
      headColumns,
    });
    expect(answer.head).toHaveLength(SEARCH_HEAD_ROWS);
    const block = (await early) as { ok: true; value: { rows: Record<string, unknown>[]; lastRow: number } };
    expect(block.ok).toBe(true);
    expect(block.value.lastRow).toBe(450);
    expect(block.value.rows.map((r) => r.hashId)).toEqual(records.slice(200, 260).map((r) => r.hashId));
  });

  it('says every record when the answer holds fewer than a block, and all of the total the size allows otherwise', async () => {
    const seen = heads();
    server.script({ raw: JSON.stringify({ total: 9000, shipments: [shipment(1), shipment(2)] }) });
    await h.ok('shipments.search', { profileId, request, headId: 'few' });
    server.script({
      raw: JSON.stringify({ total: 9000, shipments: Array.from({ length: 300 }, (_, i) => shipment(i)) }),
    });
    // Not what the service holds to (5,000 asked, 300 sent): the answer's own count then replaces it.
    const answer = await h.ok<ShipmentSearchAnswer>('shipments.search', {
      profileId,
      request,
      headId: 'many',
    });
    expect(seen.map((s) => [s.headId, s.total, s.returned, s.head.length])).toEqual([
      ['few', 9000, 2, 2],
      ['many', 9000, 5000, SEARCH_HEAD_ROWS],
    ]);
    expect(answer.returned).toBe(300);
  });

  it('is provisional: an answer whose later record the check refuses fails after its head, and leaves no dataset', async () => {
    const before = (await datasets()).length;
    const records: Record<string, unknown>[] = Array.from({ length: 400 }, (_, i) => shipment(i));
    records[321] = { ...shipment(321), usdCif: 12.5 };
    server.script({ raw: JSON.stringify({ total: 400, shipments: records }) });
    const seen = heads();
    const refused = await h.call('shipments.search', { profileId, request, headId: 'bad-later' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'BadResponse' } });
    expect(seen.map((s) => s.headId)).toEqual(['bad-later']);
    // Reads of the head's dataset are not held any more: there is none.
    expect(await h.call('library.get', { id: seen[0]!.datasetId })).toMatchObject({
      ok: false,
      error: { kind: 'NotFound' },
    });
    expect((await datasets()).length).toBe(before);
  });

  it('is not announced when the search names no head, nothing matched, or the head holds a record the spec refuses', async () => {
    const seen = heads();
    server.script({ raw: JSON.stringify({ total: 2, shipments: [shipment(1), shipment(2)] }) });
    await h.ok('shipments.search', { profileId, request });
    server.script({ raw: JSON.stringify({ total: 0, shipments: [] }) });
    await h.ok('shipments.search', { profileId, request, headId: 'none' });
    server.script({
      raw: JSON.stringify({ total: 2, shipments: [{ ...shipment(1), usdCif: 3 }, shipment(2)] }),
    });
    expect(await h.call('shipments.search', { profileId, request, headId: 'refused' })).toMatchObject({
      ok: false,
    });
    expect(seen).toEqual([]);
  });
});
