import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseResponse } from '@shared/spec/responses';
import { useLibrary } from '../helpers/library';
import { shipment } from './helpers';

/**
 * A search's answer stored by DuckDB straight from its body's bytes (AnswerStage) must be the very rows
 * the parsed records give: the same text, the same NULLs, the same typed shadows, in the same order.
 * Where DuckDB would read the bytes otherwise than JSON.parse, the parsed records are stored instead.
 */
const temp = useLibrary('portolan-lib-test-');

const request = { hs_codes: ['7208'], start_date: '2024-01-01', end_date: '2024-06-30', size: 5000 };

/** The body parsed and checked as the service client does it. */
function parsed(body: Uint8Array): { total: number; shipments: Record<string, unknown>[] } {
  const r = parseResponse('shipmentSearch', JSON.parse(new TextDecoder().decode(body)));
  if (!r.ok) throw new Error(`the test's body does not parse: ${r.issue.message}`);
  return r.value;
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const bodyOf = (records: readonly Record<string, unknown>[]): Uint8Array =>
  bytes(JSON.stringify({ total: records.length, shipments: records }));

/** A dataset's rows, every column but its id, in row order, as text. */
async function rowsOf(id: string): Promise<string[][]> {
  const rows = await temp.lib.reader.all(
    `SELECT * EXCLUDE (dataset_id) FROM shipment_rows WHERE dataset_id = $1 ORDER BY row_no`,
    [id],
  );
  return rows.map((r) => Object.values(r).map((v) => JSON.stringify(v)));
}

/** The first row where two datasets' rows differ, or null (a diff of thousands of rows is slow to print). */
function firstDifference(a: string[][], b: string[][]): { row: number; a?: string[]; b?: string[] } | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return { row: i, a: a[i], b: b[i] };
  return null;
}

/** The body saved twice: from its bytes (AnswerStage) and from its parsed records only. */
async function saveBothWays(
  body: Uint8Array,
): Promise<{ id: string; fromBytes: string[][]; fromRecords: string[][] }> {
  const a = randomUUID();
  const b = randomUUID();
  const stage = await temp.lib.stageAnswer(a);
  stage.begin(body);
  await temp.lib.saveShipmentSearch(request, parsed(body), { id: a, answer: stage });
  await temp.lib.saveShipmentSearch(request, parsed(body), { id: b });
  return { id: a, fromBytes: await rowsOf(a), fromRecords: await rowsOf(b) };
}

/** Whether the stage took the body's rows for its records (a number) or left them to the records (null). */
async function taken(body: Uint8Array): Promise<number | null> {
  const stage = await temp.lib.stageAnswer(randomUUID());
  stage.begin(body);
  return stage.rowsOf(parsed(body).shipments);
}

/** Values that test every rule of the row table: empty text, long and non-ASCII text, numbers, days. */
const tricky: Record<string, string>[] = [
  {
    fobValue: '1,234.50',
    cifValue: ' 12 ',
    arrivalDate: '2024-01-05',
    productDetails: 'São Paulo — Ünïcode 😀',
  },
  { fobValue: '1e3', cifValue: '-', arrivalDate: '2024-1-5', productDetails: 'quote " backslash \\ tab \t' },
  { fobValue: '.5', cifValue: 'n/a', arrivalDate: ' 2024-01-05 ', productDetails: 'line\nbreak' },
  { fobValue: '12,5', cifValue: 'NaN', arrivalDate: '2024-02-30', productDetails: 'x\u0000y' },
  { fobValue: '-0', cifValue: '1,23', arrivalDate: '', productDetails: '' },
  { fobValue: '123456789012345678', cifValue: '+5', arrivalDate: '2024/01/05', importerName: '北京贸易' },
];

describe('a search answer stored from its bytes', () => {
  it('holds the very rows its parsed records give, over more than one DuckDB vector', async () => {
    const records = Array.from({ length: 4200 }, (_, i) => shipment(i, tricky[i % tricky.length]));
    const body = bodyOf(records);
    expect(await taken(body)).toBe(4200);

    const { id, fromBytes, fromRecords } = await saveBothWays(body);
    expect(fromBytes).toHaveLength(4200);
    expect(firstDifference(fromBytes, fromRecords)).toBeNull();
    // Not two empty agreements: text, NULLs and shadows are there.
    const first = await temp.lib.reader.one(
      `SELECT "productDetails", "cifValue", "arrivalDate", "fobValue__typed", "arrivalDate__typed"
         FROM shipment_rows WHERE dataset_id = $1 AND row_no = 0`,
      [id],
    );
    expect(first).toMatchObject({
      productDetails: 'São Paulo — Ünïcode 😀',
      cifValue: ' 12 ',
      fobValue__typed: 1234.5,
    });
    expect(String(first?.arrivalDate__typed)).toContain('2024-01-05');
  });

  it('takes a JSON null as the empty text the parser makes of it', async () => {
    const records = [shipment(1, { cifValue: 'x' }), shipment(2)].map((r, i) => ({
      ...r,
      cifValue: i === 0 ? null : r.cifValue,
    }));
    const body = bodyOf(records);
    expect(await taken(body)).toBe(2);
    const { fromBytes, fromRecords } = await saveBothWays(body);
    expect(fromBytes).toEqual(fromRecords);
  });

  it('leaves to the parsed records an answer DuckDB reads otherwise, and stores what the parser read', async () => {
    const one = JSON.stringify(shipment(1));
    const cases: Record<string, Uint8Array> = {
      // JSON.parse keeps the last of two values of a field, DuckDB the first.
      'a field named twice': bytes(`{"total":1,"shipments":[${one.slice(0, -1)},"fobValue":"999"}]}`),
      'a lone surrogate': bytes(
        `{"total":1,"shipments":[${one.replace('"Importer 1"', '"Imp\\ud800orter"')}]}`,
      ),
      'a field beyond the spec': bodyOf([{ ...shipment(1), tariffNote: 'kept apart' }]),
      'a field missing': bodyOf([Object.fromEntries(Object.entries(shipment(1)).slice(1))]),
      'fields in another order': bodyOf([Object.fromEntries(Object.entries(shipment(1)).reverse())]),
    };
    const stored: Record<string, string> = {};
    for (const [what, body] of Object.entries(cases)) {
      expect(await taken(body), what).toBeNull();
      const { id, fromBytes, fromRecords } = await saveBothWays(body);
      expect(fromBytes, what).toEqual(fromRecords);
      expect(fromBytes, what).toHaveLength(1);
      const row = await temp.lib.reader.one(
        `SELECT "fobValue", "importerName" FROM shipment_rows WHERE dataset_id = $1`,
        [id],
      );
      stored[what] = `${String(row?.fobValue)} ${String(row?.importerName)}`;
    }
    expect(stored['a field named twice']).toBe('999 Importer 1');
    expect(stored['a lone surrogate']).toBe('37 Imp\ufffdorter');
  });

  it('is stored from the records when the bytes are not UTF-8, as the parser decodes them', async () => {
    const text = JSON.stringify({ total: 1, shipments: [shipment(1, { importerName: 'Imp@rter' })] });
    const body = bytes(text);
    body[text.indexOf('@')] = 0xff;
    expect(await taken(body)).toBeNull();
    const { fromBytes, fromRecords } = await saveBothWays(body);
    expect(fromBytes).toEqual(fromRecords);
    expect(fromBytes[0]).toContain(JSON.stringify('Imp\ufffdrter'));
  });

  it('leaves nothing behind when the search fails or the stage is not used', async () => {
    const unused = await temp.lib.stageAnswer('0d0d0d0d-0000-4000-8000-00000000000d');
    unused.begin(bodyOf([shipment(1)]));
    await unused.discard();
    const neverBegun = await temp.lib.stageAnswer('0e0e0e0e-0000-4000-8000-00000000000e');
    await neverBegun.discard();
    await temp.lib.write(async () => undefined);
    const left = await temp.lib.reader.one(
      `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'portolan_fresh'`,
    );
    expect(Number(left?.n)).toBe(0);
  });
});
