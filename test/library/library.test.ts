import { describe, expect, it, vi } from 'vitest';
import { checkedRecordList, parseResponse } from '@shared/spec';
import { Library } from '../../src/main/library';
import { Db } from '../../src/main/library/db';
import { useLibrary } from '../helpers/library';
import { changeLibraryFile, firm, shipment } from './helpers';

const temp = useLibrary('portolan-lib-test-');

const request = {
  exporter_countries: ['DE'],
  importer_countries: ['TR'],
  hs_codes: ['7208'],
  start_date: '2024-01-01',
  end_date: '2024-06-30',
  size: 100,
};

describe('datasets', () => {
  it('saves a response as a dataset with its provenance and a name made from the filter', async () => {
    const records = [shipment(1), shipment(2), shipment(3)];
    const d = await temp.lib.saveShipmentSearch(
      request,
      { total: 3, shipments: records },
      { profileId: 'p1', profileName: 'Desk', account: 'acme' },
    );
    expect(d.name).toBe('Shipments · DE→TR · HS 7208 · 2024-01-01…2024-06-30');
    expect(d).toMatchObject({
      kind: 'shipments',
      storedRows: 3,
      reportedTotal: 3,
      status: 'complete',
      profileId: 'p1',
      profileName: 'Desk',
      account: 'acme',
      source: 'fetch',
    });
    expect(d.request).toEqual(request);
    const block = await temp.lib.getRows(d.id, { startRow: 0, endRow: 10 });
    expect(block.lastRow).toBe(3);
    expect(block.rows.map((r) => r.hashId)).toEqual(['h000001', 'h000002', 'h000003']);
    // Every field's original text comes back, empty ones as "".
    const { _row, ...first } = block.rows[0]!;
    expect(_row).toBe(0);
    expect(first).toEqual(records[0]);
  });

  it('keeps fields the spec does not list and fillers exactly as sent', async () => {
    const rec = { ...shipment(1, { fobValue: '-', usdCif: '0012.50' }), surprise: { nested: [1, 'x'] } };
    const d = await temp.lib.saveShipmentSearch({}, { total: 1, shipments: [rec] });
    const [row] = (await temp.lib.getRows(d.id, { startRow: 0, endRow: 1 })).rows;
    expect(row?.fobValue).toBe('-');
    expect(row?.usdCif).toBe('0012.50');
    expect(row?.surprise).toEqual({ nested: [1, 'x'] });
  });

  it('marks a capped response partial', async () => {
    const d = await temp.lib.saveShipmentSearch(request, { total: 50, shipments: [shipment(1)] });
    expect(d.status).toBe('partial');
    expect(d.reportedTotal).toBe(50);
  });

  it('lists, searches by name, notes and tags, renames, tags, sets notes and deletes', async () => {
    const a = await temp.lib.saveShipmentSearch(request, { total: 1, shipments: [shipment(1)] });
    const b = await temp.lib.saveRecords({ kind: 'firms', request: { product_detail: 'cotton' } }, [
      firm(1),
      firm(2),
    ]);
    expect((await temp.lib.list()).map((d) => d.id).sort()).toEqual([a.id, b.id].sort());
    expect((await temp.lib.list({ kind: 'firms' })).map((d) => d.id)).toEqual([b.id]);

    await temp.lib.rename(a.id, 'Steel Q1');
    await temp.lib.setTags(a.id, ['steel', ' urgent ', 'steel', '']);
    await temp.lib.setNotes(b.id, 'Ask Ayşe about these');
    expect((await temp.lib.get(a.id)).tags).toEqual(['steel', 'urgent']);
    expect((await temp.lib.list({ search: 'steel q' })).map((d) => d.id)).toEqual([a.id]);
    expect((await temp.lib.list({ search: 'URGENT' })).map((d) => d.id)).toEqual([a.id]);
    expect((await temp.lib.list({ search: 'ayşe' })).map((d) => d.id)).toEqual([b.id]);
    expect((await temp.lib.list({ tag: 'Steel' })).map((d) => d.id)).toEqual([a.id]);

    await temp.lib.delete(a.id);
    await expect(temp.lib.get(a.id)).rejects.toMatchObject({ kind: 'NotFound' });
    expect((await temp.lib.list()).map((d) => d.id)).toEqual([b.id]);
    const left = await temp.lib.reader.one(`SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = $1`, [
      a.id,
    ]);
    expect(Number(left?.n)).toBe(0);
  });

  it('searches tag values, not the JSON the tags are stored as', async () => {
    const save = (name: string, tags: string[]) =>
      temp.lib.saveRecords({ kind: 'firms', request: { product_detail: name }, name, tags }, [firm(1)]);
    const tagged = await save('Alpha', ['Steel', 'urgent']);
    const quoted = await save('Beta', ['O"Neil, Q1']);
    const plain = await save('Gamma', []);
    const found = async (search: string): Promise<string[]> =>
      (await temp.lib.list({ search })).map((d) => d.name).sort();

    for (const syntax of ['[', ']', '","', '["', '"]']) expect(await found(syntax), syntax).toEqual([]);
    // Characters that are part of a tag's value still find it.
    expect(await found('"')).toEqual(['Beta']);
    expect(await found('neil, q')).toEqual(['Beta']);
    expect(await found('EEL')).toEqual(['Alpha']);
    // A match must lie within one tag, not across the boundary between two.
    expect(await found('steelurgent')).toEqual([]);
    expect(await found('a')).toEqual(['Alpha', 'Beta', 'Gamma']);

    // A damaged tags column is read as no tags rather than failing the whole list.
    await temp.lib.close();
    await changeLibraryFile(temp.dir, `UPDATE datasets SET tags_json = 'not json' WHERE id = $1`, [plain.id]);
    temp.lib = await Library.open(temp.dir);
    expect(await found('urgent')).toEqual(['Alpha']);
    expect(await found('gamma')).toEqual(['Gamma']);
    expect((await temp.lib.list({ tag: 'steel' })).map((d) => d.id)).toEqual([tagged.id]);
    expect(quoted.tags).toEqual(['O"Neil, Q1']);
  });

  it('refuses to save a record that breaks the spec and changes nothing', async () => {
    const bad = [shipment(1), { ...shipment(2), fobValue: 12 }];
    await expect(temp.lib.saveShipmentSearch(request, { total: 2, shipments: bad })).rejects.toMatchObject({
      kind: 'InvalidInput',
    });
    expect(await temp.lib.list()).toEqual([]);
    const rows = await temp.lib.reader.one('SELECT count(*) AS n FROM shipment_rows');
    expect(Number(rows?.n)).toBe(0);
  });

  it('checks every record the same way whatever the order of its fields', async () => {
    // Records in the spec's field order take a faster read than the rest; both must refuse the same.
    const { hashId, ...rest } = shipment(1);
    const reordered = { hashId, ...rest, fobValue: 7 };
    await expect(
      temp.lib.saveShipmentSearch(request, { total: 2, shipments: [shipment(0), reordered] }),
    ).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: expect.stringContaining('shipments[1].fobValue: must be text') as unknown,
    });
    const extra = { ...shipment(2), vesselFlag: 'MT', usdFob: false };
    await expect(
      temp.lib.saveShipmentSearch(request, { total: 1, shipments: [extra] }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('shipments[0].usdFob: must be text') as unknown,
    });
    await expect(
      temp.lib.saveRecords({ kind: 'firms', request: {} }, [firm(0), firm(1, { shipment_count: 1.5 })]),
    ).rejects.toMatchObject({
      message: expect.stringContaining('firms[1].shipment_count: must be a whole number') as unknown,
    });
    const { name, ...firmRest } = firm(3);
    await expect(
      temp.lib.saveRecords({ kind: 'firms', request: {} }, [{ ...firmRest, name, firm_type: '2' }]),
    ).rejects.toMatchObject({
      message: expect.stringContaining('firms[0].firm_type: must be a whole number') as unknown,
    });
    expect(await temp.lib.list()).toEqual([]);
    expect(Number((await temp.lib.reader.one('SELECT count(*) AS n FROM shipment_rows'))?.n)).toBe(0);
  });

  it('stores a response the service client checked as it came, without checking it again', async () => {
    // The app's path: the client parses and checks the body once (parseResponse vouches for the list);
    // the library lays the vouched list out as it is. An unvouched copy is checked as it is stored.
    const body = JSON.stringify({ total: 2, shipments: [shipment(1), shipment(2)] });
    const parsed = parseResponse('shipmentSearch', JSON.parse(body));
    if (!parsed.ok) throw new Error(parsed.issue.message);
    expect(checkedRecordList(parsed.value.shipments)).toEqual({ allInSpecOrder: true });
    expect(checkedRecordList([...parsed.value.shipments])).toBeUndefined();
    const d = await temp.lib.saveShipmentSearch(request, parsed.value);
    expect(d.storedRows).toBe(2);
    const copy = await temp.lib.saveShipmentSearch(request, {
      total: 2,
      shipments: [...parsed.value.shipments],
    });
    const rows = async (id: string) => (await temp.lib.getRows(id, { startRow: 0, endRow: 5 })).rows;
    expect(await rows(d.id)).toEqual(await rows(copy.id));
    expect((await temp.lib.list()).length).toBe(2);
  });

  it('stores every kind of text exactly, across several data chunks', async () => {
    // Short ASCII text is laid out inline by the chunk writer, everything else goes through
    // DuckDB's string heap; both, and NULLs between them, must come back unchanged in every chunk.
    const samples = [
      '',
      'a',
      'ABCDEFGHIJKL',
      'ABCDEFGHIJKLM',
      'Ünye',
      'İzmir Limanı',
      '東京港',
      '🚢 cargo',
      ' padded ',
      'tab\tand\nline',
      'a "quoted" \\ path',
      'bell\u0007 and \u001f unit',
      '0012.50',
      'x'.repeat(5000),
      'nul\u0000inside and longer',
      'ÜÜÜÜÜÜ',
      'ÜÜÜÜÜÜa',
      'Çorlu',
      '港'.repeat(400),
    ];
    const records = Array.from({ length: 4500 }, (_, i) =>
      shipment(i, {
        productDetails: samples[i % samples.length]!,
        importerName: samples[(i * 7) % samples.length]!,
        fobValue: i % 2049 === 0 ? '' : String(i),
      }),
    );
    const d = await temp.lib.saveShipmentSearch({}, { total: records.length, shipments: records });
    const fields = Object.keys(records[0]!);
    const back: unknown[][] = [];
    const sizes: number[] = [];
    for await (const batch of temp.lib.streamFieldRows(d.id, fields)) {
      sizes.push(batch.length);
      back.push(...batch);
    }
    expect(back).toHaveLength(records.length);
    // Rows leave in small batches, not a data chunk's 2,048 at once, so each batch's values die young.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(256);
    for (let i = 0; i < records.length; i++) {
      const want = fields.map((f) => records[i]![f]);
      if (JSON.stringify(back[i]) !== JSON.stringify(want))
        expect({ row: i, got: back[i] }).toEqual({ row: i, got: want });
    }
    // Stored text compares and sorts as the text itself (byte order, as DuckDB sorts VARCHAR).
    for (const text of samples.filter((t) => t !== '')) {
      const hit = await temp.lib.reader.one(
        `SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = $1 AND "importerName" = $2`,
        [d.id, text],
      );
      expect({ text, n: Number(hit?.n) }).toEqual({
        text,
        n: records.filter((r) => r.importerName === text).length,
      });
    }
    const sorted = await temp.lib.reader.all(
      `SELECT DISTINCT "productDetails" AS t FROM shipment_rows WHERE dataset_id = $1 AND "productDetails" IS NOT NULL ORDER BY t`,
      [d.id],
    );
    const byBytes = [...new Set(samples.filter((t) => t !== ''))].sort((a, b) =>
      Buffer.compare(Buffer.from(a), Buffer.from(b)),
    );
    expect(sorted.map((r) => r.t)).toEqual(byBytes);
    // Empty text is kept as NULL (small table), not as empty strings.
    const empty = await temp.lib.reader.one(
      `SELECT count(*) FILTER (WHERE "productDetails" IS NULL) AS nulls, count(*) FILTER (WHERE "productDetails" = '') AS blanks FROM shipment_rows`,
    );
    expect([Number(empty?.nulls), Number(empty?.blanks)]).toEqual([
      records.filter((r) => r.productDetails === '').length,
      0,
    ]);
  });

  it('stores firm counts as numbers and missing ones as null', async () => {
    const firms = Array.from({ length: 2100 }, (_, i) =>
      firm(i, { shipment_count: i % 3 === 0 ? null : i * 2 ** 30, firm_type: i % 5 === 0 ? null : 0 }),
    );
    const d = await temp.lib.saveRecords({ kind: 'firms', request: {} }, firms);
    const back = (await temp.lib.getRows(d.id, { startRow: 2040, endRow: 2100 })).rows;
    expect(back.map((r) => [r.shipment_count, r.firm_type])).toEqual(
      firms.slice(2040).map((f) => [f.shipment_count, f.firm_type]),
    );
  });

  it('refuses a response whose bad record comes after whole chunks were written, and stores nothing', async () => {
    const records: Record<string, unknown>[] = Array.from({ length: 5000 }, (_, i) => shipment(i));
    records[4321] = { ...shipment(4321), usdCif: 12.5 };
    await expect(
      temp.lib.saveShipmentSearch(request, { total: 5000, shipments: records }),
    ).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: expect.stringContaining('shipments[4321].usdCif') as unknown,
    });
    expect(await temp.lib.list()).toEqual([]);
    expect(Number((await temp.lib.reader.one('SELECT count(*) AS n FROM shipment_rows'))?.n)).toBe(0);
  });

  it('finds a saved copy of the same question, with its age; not for another profile or a bigger ask', async () => {
    const d = await temp.lib.saveShipmentSearch(
      request,
      { total: 3, shipments: [shipment(1), shipment(2), shipment(3)] },
      { profileId: 'p1', account: 'acme' },
    );
    const same = {
      size: 10,
      start_date: '2024-01-01',
      end_date: '2024-06-30',
      hs_codes: ['7208'],
      importer_countries: ['TR'],
      exporter_countries: ['DE'],
    };
    const found = await temp.lib.findEquivalent(same, { profileId: 'p1', account: 'acme' });
    expect(found?.dataset.id).toBe(d.id);
    expect(found?.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(await temp.lib.findEquivalent(same, { profileId: 'p2', account: 'acme' })).toBeNull();
    expect(
      await temp.lib.findEquivalent({ ...same, hs_codes: ['7209'] }, { profileId: 'p1', account: 'acme' }),
    ).toBeNull();

    const capped = await temp.lib.saveShipmentSearch(
      { hs_codes: ['01'], size: 10 },
      { total: 500, shipments: Array.from({ length: 10 }, (_, i) => shipment(i)) },
      { profileId: 'p1' },
    );
    expect(
      (await temp.lib.findEquivalent({ hs_codes: ['01'], size: 10 }, { profileId: 'p1' }))?.dataset.id,
    ).toBe(capped.id);
    expect(await temp.lib.findEquivalent({ hs_codes: ['01'], size: 100 }, { profileId: 'p1' })).toBeNull();
  });

  it('opens and reads offline: no client anywhere, the data is all in the file', async () => {
    const d = await temp.lib.saveShipmentSearch(request, { total: 2, shipments: [shipment(1), shipment(2)] });
    await temp.lib.close();
    temp.lib = await Library.open(temp.dir);
    expect((await temp.lib.get(d.id)).storedRows).toBe(2);
    expect(
      (
        await temp.lib.getRows(d.id, {
          startRow: 0,
          endRow: 5,
          sortModel: [{ colId: 'fobValue', sort: 'desc' }],
        })
      ).rows,
    ).toHaveLength(2);
  });

  it('discards an uncommitted (pending) dataset left by a crash when it reopens', async () => {
    await temp.lib.write(async (tx) => {
      const id = await tx.createDataset({ kind: 'shipments', request: {} }, 'pending');
      await tx.appendRecords('shipments', id, 0, [{ hashId: 'x' }]);
    });
    await temp.lib.close();
    temp.lib = await Library.open(temp.dir);
    expect(Number((await temp.lib.reader.one('SELECT count(*) AS n FROM datasets'))?.n)).toBe(0);
    expect(Number((await temp.lib.reader.one('SELECT count(*) AS n FROM shipment_rows'))?.n)).toBe(0);
  });

  it('streams the named fields of every row for exporters, in stored or view order', async () => {
    const recs = Array.from({ length: 2500 }, (_, i) => shipment(i, i % 3 === 0 ? { fobValue: '' } : {}));
    const d = await temp.lib.saveShipmentSearch({}, { total: recs.length, shipments: recs });
    const all: unknown[][] = [];
    for await (const b of temp.lib.streamFieldRows(d.id, ['hashId', 'fobValue'])) all.push(...b);
    // Arrays aligned with the fields asked for; empty text comes back as "".
    expect(all).toEqual(recs.map((r) => [r.hashId, r.fobValue]));

    const sorted: unknown[] = [];
    const query = {
      sortModel: [{ colId: 'fobValue', sort: 'desc' as const }],
      filterModel: {
        importerName: { filterType: 'text' as const, type: 'equals' as const, filter: 'importer 3' },
      },
    };
    for await (const b of temp.lib.streamFieldRows(d.id, ['fobValue'], { query }))
      sorted.push(...b.map((r) => r[0]));
    const expected = recs
      .filter((r) => r.importerName === 'Importer 3')
      .map((r) => r.fobValue!)
      .sort((a, b) => (a === '' ? 1 : b === '' ? -1 : Number(b) - Number(a)));
    expect(sorted).toEqual(expected);

    const firms = await temp.lib.saveRecords({ kind: 'firms', request: {} }, [
      firm(1),
      firm(2, { shipment_count: null }),
    ]);
    const counts: unknown[][] = [];
    for await (const b of temp.lib.streamFieldRows(firms.id, ['name', 'shipment_count'])) counts.push(...b);
    expect(counts).toEqual([
      ['Firm 1', 3],
      ['Firm 2', null],
    ]);
    await expect(async () => {
      for await (const _ of temp.lib.streamFieldRows(d.id, ['nope'])) void _;
    }).rejects.toMatchObject({ kind: 'InvalidInput' });
  });

  it('streams a dataset larger than one page in stored order, across pages and beside another dataset', async () => {
    // Two datasets written turn about, so their rows lie interleaved in the table; a stored-order
    // stream reads a page of row numbers at a time and must neither lose nor repeat a row at a page's
    // edge, nor pick up the other dataset's rows.
    const n = 45_000;
    const [a, b] = await temp.lib.write(async (tx) => [
      await tx.createDataset({ kind: 'shipments', request: { hs_codes: ['72'] } }),
      await tx.createDataset({ kind: 'shipments', request: { hs_codes: ['84'] } }),
    ]);
    for (let at = 0; at < n; at += 5_000) {
      const part = (tag: string) =>
        Array.from({ length: 5_000 }, (_, i) => shipment(at + i, { hashId: `${tag}${at + i}` }));
      await temp.lib.write(async (tx) => {
        await tx.appendRecords('shipments', a!, at, part('a'));
        await tx.appendRecords('shipments', b!, at, part('b'));
      });
    }
    await temp.lib.write(async (tx) => {
      await tx.finishDataset(a!, { status: 'complete', storedRows: n });
      await tx.finishDataset(b!, { status: 'complete', storedRows: n });
    });
    const ids: unknown[] = [];
    for await (const rows of temp.lib.streamFieldRows(a!, ['hashId'])) ids.push(...rows.map((r) => r[0]));
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => `a${i}`));

    // A filter keeps stored order: every row whose importer is "Importer 3", in row order.
    const filtered: unknown[] = [];
    const query = {
      filterModel: {
        importerName: { filterType: 'text' as const, type: 'equals' as const, filter: 'importer 3' },
      },
    };
    for await (const rows of temp.lib.streamFieldRows(b!, ['hashId'], { query }))
      filtered.push(...rows.map((r) => r[0]));
    expect(filtered).toEqual(
      Array.from({ length: n }, (_, i) => i)
        .filter((i) => i % 7 === 3)
        .map((i) => `b${i}`),
    );
  }, 120_000);

  /**
   * A view of a dataset larger than a sorted export's page, sorted by text (as a spreadsheet sorts it)
   * and by a decimal (by its value), with many ties, and filtered.
   */
  async function sortedView() {
    const texts = ['b', 'A', 'a', 'B', '10', '9', '', 'a'];
    const recs = Array.from({ length: 20_000 }, (_, i) =>
      shipment(i, { productDetails: texts[i % texts.length]!, fobValue: String((i * 7) % 13) }),
    );
    const d = await temp.lib.saveShipmentSearch({}, { total: recs.length, shipments: recs });
    const query = {
      sortModel: [
        { colId: 'productDetails', sort: 'asc' as const },
        { colId: 'fobValue', sort: 'desc' as const },
      ],
      filterModel: {
        importerName: { filterType: 'text' as const, type: 'notEqual' as const, filter: 'importer 3' },
      },
    };
    return { recs, id: d.id, query };
  }

  it('exports every row of a sorted, filtered view in the grid’s order, ties in row order', async () => {
    const { recs, id, query } = await sortedView();
    const exported: string[] = [];
    for await (const rows of temp.lib.streamFieldRows(id, ['hashId'], { query }))
      exported.push(...rows.map((r) => r[0] as string));

    // The grid's own rows of the same view, block by block.
    const shown: string[] = [];
    for (let at = 0; ; at += 5_000) {
      const block = await temp.lib.getRows(id, { ...query, startRow: at, endRow: at + 5_000 });
      shown.push(...block.rows.map((r) => String(r.hashId)));
      if (at + 5_000 >= block.lastRow) break;
    }
    expect(shown).toHaveLength(recs.filter((r) => r.importerName !== 'Importer 3').length);
    expect(exported).toEqual(shown);
    // Independently of the grid: the sort keys never go backwards, and rows that tie on both keep
    // row order. Case only breaks ties between equal letters; digits are text; empty text sorts last.
    const byId = new Map(recs.map((r) => [r.hashId!, r]));
    const rank = (t: string): number => ['10', '9', 'a', 'A', 'b', 'B', ''].indexOf(t);
    let ties = 0;
    for (let i = 1; i < exported.length; i++) {
      const a = byId.get(exported[i - 1]!)!;
      const b = byId.get(exported[i]!)!;
      const cmp =
        rank(a.productDetails!) - rank(b.productDetails!) || Number(b.fobValue) - Number(a.fobValue);
      if (cmp === 0) {
        ties += 1;
        expect(a.hashId! < b.hashId!).toBe(true);
      } else expect(cmp).toBeLessThan(0);
    }
    expect(ties).toBeGreaterThan(10_000);
  }, 120_000);

  it('exports a sorted view a page of its order at a time, never sorting its whole rows in one query', async () => {
    const { id, query } = await sortedView();
    const statements: string[] = [];
    const streamRows = Db.prototype.streamRows;
    const stream = vi.spyOn(Db.prototype, 'streamRows').mockImplementation(function (
      this: Db,
      ...args: Parameters<Db['streamRows']>
    ) {
      statements.push(args[0]);
      return streamRows.apply(this, args);
    });
    let rows = 0;
    try {
      for await (const batch of temp.lib.streamFieldRows(id, ['hashId', 'fobValue'], { query }))
        rows += batch.length;
    } finally {
      stream.mockRestore();
    }
    expect(rows).toBe(17_143);
    // Each page's rows are picked by their row numbers (a range and a bit per row).
    expect(statements.length).toBeGreaterThan(1);
    for (const sql of statements) expect(sql).toMatch(/get_bit/);
  }, 120_000);

  it('stops a stream early without holding the library up', async () => {
    const d = await temp.lib.saveShipmentSearch(
      {},
      { total: 5000, shipments: Array.from({ length: 5000 }, (_, i) => shipment(i)) },
    );
    const controller = new AbortController();
    let rows = 0;
    for await (const b of temp.lib.streamFieldRows(d.id, ['hashId'], { signal: controller.signal })) {
      rows += b.length;
      controller.abort();
    }
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(5000);
    // The grid's reads and further writes go on as before.
    expect((await temp.lib.getRows(d.id, { startRow: 0, endRow: 3 })).rows).toHaveLength(3);
    await temp.lib.rename(d.id, 'still writable');
    expect((await temp.lib.get(d.id)).name).toBe('still writable');

    // Closing the library under a reader ends its stream with an error, never a quietly short result.
    const read = async (): Promise<number> => {
      let n = 0;
      for await (const b of temp.lib.streamFieldRows(d.id, ['hashId'])) {
        n += b.length;
        await temp.lib.close();
      }
      return n;
    };
    await expect(read()).rejects.toThrow(/closed/);
  });

  it('returns only the requested columns when the grid names them', async () => {
    const d = await temp.lib.saveShipmentSearch({}, { total: 2, shipments: [shipment(1), shipment(2)] });
    const block = await temp.lib.getRows(d.id, {
      startRow: 0,
      endRow: 2,
      columns: ['hashId', 'fobValue'],
      sortModel: [{ colId: 'fobValue', sort: 'asc' }],
    });
    expect(block.rows).toEqual([
      { hashId: 'h000001', fobValue: '37', _row: 0 },
      { hashId: 'h000002', fobValue: '74', _row: 1 },
    ]);
    await expect(
      temp.lib.getRows(d.id, { startRow: 0, endRow: 2, columns: ['hashId', 'nope'] }),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
  });

  it('sorts and filters by columns the grid does not show, returning only those it shows', async () => {
    const ships = Array.from({ length: 30 }, (_, i) => shipment(i + 1));
    const d = await temp.lib.saveShipmentSearch({}, { total: ships.length, shipments: ships });
    const view = {
      sortModel: [{ colId: 'fobValue', sort: 'desc' as const }],
      filterModel: {
        importerName: { filterType: 'text' as const, type: 'equals' as const, filter: 'importer 3' },
      },
    };
    const shown = await temp.lib.getRows(d.id, {
      startRow: 0,
      endRow: 30,
      columns: ['hashId', 'hsCode'],
      ...view,
    });
    const whole = await temp.lib.getRows(d.id, { startRow: 0, endRow: 30, ...view });
    // The same rows in the same order as whole rows give, with the shown columns and the row number only.
    const expected = ships
      .filter((r) => r.importerName === 'Importer 3')
      .sort((a, b) => Number(b.fobValue) - Number(a.fobValue))
      .map((r) => r.hashId);
    expect(expected.length).toBeGreaterThan(1);
    expect(shown.rows.map((r) => r.hashId)).toEqual(expected);
    expect(whole.rows.map((r) => r.hashId)).toEqual(expected);
    expect(shown.lastRow).toBe(expected.length);
    for (const r of shown.rows) expect(Object.keys(r).sort()).toEqual(['_row', 'hashId', 'hsCode']);
    expect(shown.rows.map((r) => r._row)).toEqual(whole.rows.map((r) => r._row));
    // Without columns a block holds whole records: exports and the record view read those.
    expect(Object.keys(whole.rows[0]!)).toEqual(
      expect.arrayContaining(['fobValue', 'importerName', 'productDetails']),
    );
    // A deep block of a sorted view, shown columns only, is the same slice of the same order.
    const deep = await temp.lib.getRows(d.id, { startRow: 1, endRow: 3, columns: ['hsCode'], ...view });
    expect(deep.rows.map((r) => r._row)).toEqual(whole.rows.slice(1, 3).map((r) => r._row));
    expect(deep.rows.every((r) => Object.keys(r).sort().join() === '_row,hsCode')).toBe(true);
    await expect(
      temp.lib.getRows(d.id, {
        startRow: 0,
        endRow: 2,
        columns: ['hsCode'],
        sortModel: [{ colId: 'nope', sort: 'asc' }],
      }),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
  });
});

describe('memory', () => {
  it('has DuckDB give back what a query frees in one go from 4 MB on, not from its default 512 MB', async () => {
    // An export's pages and a grid's blocks each free a few MB: at the default their memory stayed
    // cached and reading 100,000 × 88 rows as an export does peaked ~40 MB higher (db.ts).
    const row = await temp.lib.reader.one(
      `SELECT current_setting('allocator_bulk_deallocation_flush_threshold') AS threshold`,
    );
    expect(String(row?.threshold)).toBe('4.0 MiB');
  });
});
