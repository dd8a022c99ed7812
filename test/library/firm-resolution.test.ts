import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FirmSummaryView } from '@shared/resolution/resolution-contract';
import { Library } from '../../src/main/library';
import { SimData, partyFields } from '../../src/main/sim/dataset';
import { loadHsSubheadings } from '../../src/main/sim/hs-codes';
import { HS_CSV } from '../analysis/fixtures';
import { useLibrary } from '../helpers/library';
import { shipment } from './helpers';

const ctx = useLibrary('portolan-firms-test-');

interface Party {
  name: string;
  cc?: string;
  country?: string;
  code?: string;
  tax?: string;
  tel?: string;
  email?: string;
  web?: string;
}

/** One shipment per importer party; exporters are one fixed firm abroad. */
function records(parties: readonly Party[]): Record<string, string>[] {
  return parties.map((p, i) =>
    shipment(i, {
      importerName: p.name,
      importerCountryCode: p.cc ?? 'CN',
      importerCountry: p.country ?? (p.cc === undefined ? 'China' : ''),
      importerUrlCode: p.code ?? '',
      importerTaxId: p.tax ?? '',
      importerTel: p.tel ?? '',
      importerEmail: p.email ?? '',
      importerWeb: p.web ?? '',
      exporterName: 'Harbor Supply Inc.',
      exporterCountryCode: 'US',
      exporterCountry: 'United States',
    }),
  );
}

/** The Firms page's list of `lib` for `query`: merged firms and single ones (unless `mergedOnly`), from the first. */
function listFirms(
  lib: Library,
  query: Omit<Parameters<Library['firms']['list']>[0], 'mergedOnly' | 'offset'> & { mergedOnly?: boolean },
) {
  return lib.firms.list({ mergedOnly: false, offset: 0, ...query });
}

async function save(lib: Library, parties: readonly Party[], name = 'firms'): Promise<string> {
  return (await lib.saveRecords({ kind: 'shipments', request: {}, name }, records(parties))).id;
}

/** The firms of a dataset as sets of spellings (sorted), for comparing groupings. */
async function groups(lib: Library, datasetId?: string): Promise<string[][]> {
  const list = await listFirms(lib, { scope: datasetId ? { datasetId } : {}, sort: 'name', limit: 1000 });
  const out: string[][] = [];
  for (const f of list.firms) {
    const detail = await lib.firms.firm(f.firmId, datasetId ? { datasetId } : {});
    out.push(
      detail.spellings
        .filter((s) => s.asImporter + s.asExporter + s.listed > 0)
        .map((s) => s.name)
        .sort(),
    );
  }
  return out.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

const firmOf = (gs: string[][], name: string): string[] | undefined => gs.find((g) => g.includes(name));

describe('firm resolution in the library', () => {
  it('groups the issue’s spellings of one firm, from a file without firm codes', async () => {
    const id = await save(ctx.lib, [
      { name: 'ACME CO LTD' },
      { name: 'Acme Company Limited' },
      { name: 'ACME CO., LTD.' },
      { name: 'Acme Co Ltd (Shanghai)' },
      { name: 'Acme Trading Co., Ltd.' },
    ]);
    const gs = await groups(ctx.lib, id);
    expect(firmOf(gs, 'ACME CO LTD')).toEqual(
      ['ACME CO LTD', 'ACME CO., LTD.', 'Acme Co Ltd (Shanghai)', 'Acme Company Limited'].sort(),
    );
    // Another word is another firm.
    expect(firmOf(gs, 'Acme Trading Co., Ltd.')).toEqual(['Acme Trading Co., Ltd.']);
    const firm = (
      await listFirms(ctx.lib, { scope: { datasetId: id }, mergedOnly: true, sort: 'rows', limit: 10 })
    ).firms[0] as FirmSummaryView;
    expect(firm.spellings).toBe(4);
    expect(firm.asImporter).toBe(4);
    expect(firm.evidence).toEqual(['name']);
  });

  it('sets legal forms, case, accents, punctuation and branch suffixes aside, in every language', async () => {
    const pairs: [Party, Party][] = [
      [
        { name: 'Yılmaz Tekstil San. ve Tic. A.Ş.', cc: 'TR' },
        { name: 'YILMAZ TEKSTIL SANAYI VE TICARET ANONIM SIRKETI', cc: 'TR' },
      ],
      [
        { name: 'Kaya Gıda Ltd. Şti.', cc: 'TR' },
        { name: 'Kaya Gida Ltd. Şti. İstanbul Şubesi', cc: 'TR' },
      ],
      [
        { name: 'García Comercial S.A. de C.V.', cc: 'MX' },
        { name: 'GARCIA COMERCIAL SA DE CV', cc: 'MX' },
      ],
      [
        { name: 'Müller Handel GmbH', cc: 'DE' },
        { name: 'Müller Handel GmbH & Co. KG Niederlassung Hamburg', cc: 'DE' },
      ],
      [
        { name: 'Sterling Plastics Pvt. Ltd.', cc: 'IN' },
        { name: 'STERLING PLASTICS PRIVATE LIMITED', cc: 'IN' },
      ],
      [
        { name: 'Pacific Steel LLC', cc: 'US' },
        { name: 'Pacific Steel, L.L.C.', cc: 'US' },
      ],
      [
        { name: 'Atlas Foods Inc.', cc: 'US' },
        { name: 'ATLAS FOODS INCORPORATED - HOUSTON BRANCH', cc: 'US' },
      ],
      [
        { name: 'Ibérica Logística S.A.', cc: 'ES' },
        { name: 'IBERICA LOGISTICA, SOCIEDAD ANONIMA', cc: 'ES' },
      ],
      [
        { name: '华信贸易有限公司', cc: 'CN' },
        { name: '华信贸易有限责任公司', cc: 'CN' },
      ],
      [
        { name: 'ООО «Волга Трейд»', cc: 'RU' },
        { name: 'OOO "Volga Treyd"', cc: 'RU' },
      ],
      [
        { name: 'Bałtyk Chemia Sp. z o.o.', cc: 'PL' },
        { name: 'BALTYK CHEMIA SP Z O O', cc: 'PL' },
      ],
      [
        { name: 'Công Ty TNHH Hoàng Long', cc: 'VN' },
        { name: 'Hoang Long Co., Ltd.', cc: 'VN' },
      ],
    ];
    const id = await save(ctx.lib, pairs.flat());
    const gs = await groups(ctx.lib, id);
    for (const [a, b] of pairs)
      expect(firmOf(gs, a.name), `${a.name} ~ ${b.name}`).toEqual([a.name, b.name].sort());
    expect(gs).toHaveLength(pairs.length + 1);
  });

  it('links typing slips and transliterations, but not names a whole word apart', async () => {
    const id = await save(ctx.lib, [
      { name: 'Evergreen Logistics Ltd', cc: 'GB' },
      { name: 'Evergren Logistics Ltd', cc: 'GB' },
      { name: 'Evergreen Logsitics Limited', cc: 'GB' },
      { name: 'Weber Kunststoffe GmbH', cc: 'DE' },
      { name: 'Meyer Kunststoffe GmbH', cc: 'DE' },
      { name: 'Liberty Pacific Textiles Corp.', cc: 'US' },
      { name: 'Liberty Pacific Foods Corp.', cc: 'US' },
      { name: 'Redwood Imprts Inc', cc: 'US' },
      { name: 'Redwood Impors Inc', cc: 'US' },
    ]);
    const gs = await groups(ctx.lib, id);
    expect(firmOf(gs, 'Evergreen Logistics Ltd')).toHaveLength(3);
    expect(firmOf(gs, 'Weber Kunststoffe GmbH')).toEqual(['Weber Kunststoffe GmbH']);
    expect(firmOf(gs, 'Liberty Pacific Foods Corp.')).toEqual(['Liberty Pacific Foods Corp.']);
    // Two slips apart in a short name is a close call: it waits for the analyst.
    expect(firmOf(gs, 'Redwood Imprts Inc')).toEqual(['Redwood Imprts Inc']);
    const review = await ctx.lib.firms.review({ datasetId: id }, { offset: 0, limit: 50 });
    expect(review.pairs.map((p) => [p.a.name, p.b.name].sort())).toContainEqual([
      'Redwood Impors Inc',
      'Redwood Imprts Inc',
    ]);
  });

  it('compares names only within a country', async () => {
    const id = await save(ctx.lib, [
      { name: 'Acme Co Ltd', cc: 'CN' },
      { name: 'ACME CO LTD', cc: 'US' },
    ]);
    const gs = await groups(ctx.lib, id);
    expect(gs.filter((g) => g[0]?.toLowerCase().startsWith('acme'))).toEqual([
      ['Acme Co Ltd'],
      ['ACME CO LTD'],
    ]);
  });

  it('takes the strongest evidence first: the same firm code, then the same tax id within a country', async () => {
    const id = await save(ctx.lib, [
      { name: 'Shenzhen Bright Lighting', code: 'X1' },
      { name: '深圳光明照明有限公司', code: 'X1' },
      { name: 'Ningbo Harbor Trading', tax: '91330200-MA2', cc: 'CN' },
      { name: '宁波港贸易有限公司', tax: '91330200MA2', cc: 'CN' },
      { name: 'Harbour Trading Ningbo', tax: '91330200MA2', cc: 'HK' },
    ]);
    const gs = await groups(ctx.lib, id);
    expect(firmOf(gs, 'Shenzhen Bright Lighting')).toEqual([
      'Shenzhen Bright Lighting',
      '深圳光明照明有限公司',
    ]);
    expect(firmOf(gs, 'Ningbo Harbor Trading')).toEqual(['Ningbo Harbor Trading', '宁波港贸易有限公司']);
    expect(firmOf(gs, 'Harbour Trading Ningbo')).toEqual(['Harbour Trading Ningbo']);
    const firmId = (
      await listFirms(ctx.lib, { scope: { datasetId: id }, search: 'ningbo harbor', sort: 'rows', limit: 5 })
    ).firms[0]!.firmId;
    const detail = await ctx.lib.firms.firm(firmId, { datasetId: id });
    expect(detail.evidence).toEqual([
      expect.objectContaining({ kind: 'tax', value: '91330200MA2', score: 1 }),
    ]);
  });

  it('links contact details only between names that agree, and never through mailbox providers or placeholders', async () => {
    const id = await save(ctx.lib, [
      // Same telephone, written two ways, same firm with a slip in the name: linked.
      { name: 'Granite Supply Co', cc: 'US', tel: '+1 212 5550147' },
      { name: 'GRANITE SUPPLY COMPANY', cc: 'US', tel: '0012125550147' },
      // A forwarding agent's telephone on two unrelated firms: not linked, but queued for review.
      { name: 'Redwood Plastics LLC', cc: 'US', tel: '+1 310 5550199' },
      { name: 'Oakridge Chemicals LLC', cc: 'US', tel: '+1 310 5550199' },
      // A free mailbox domain says nothing; a firm's own domain does (with names that agree).
      { name: 'Summit Foods Inc', cc: 'US', email: 'summitfoods@gmail.com' },
      { name: 'Summit Tools Inc', cc: 'US', email: 'summittools@gmail.com' },
      { name: 'Keystone Electronics Corp', cc: 'US', web: 'www.keystone-elec.com' },
      { name: 'Keystone Electronic Corp', cc: 'US', email: 'sales@keystone-elec.com' },
      // A placeholder tax id links nothing.
      { name: 'Alpha Imports Ltd', cc: 'US', tax: '0000000000' },
      { name: 'Omega Exports Ltd', cc: 'US', tax: '00000-00000' },
    ]);
    const gs = await groups(ctx.lib, id);
    expect(firmOf(gs, 'Granite Supply Co')).toHaveLength(2);
    expect(firmOf(gs, 'Redwood Plastics LLC')).toEqual(['Redwood Plastics LLC']);
    expect(firmOf(gs, 'Summit Foods Inc')).toEqual(['Summit Foods Inc']);
    expect(firmOf(gs, 'Keystone Electronics Corp')).toHaveLength(2);
    expect(firmOf(gs, 'Alpha Imports Ltd')).toEqual(['Alpha Imports Ltd']);
    const review = await ctx.lib.firms.review({ datasetId: id }, { offset: 0, limit: 50 });
    expect(review.pairs).toContainEqual(
      expect.objectContaining({ kind: 'phone', value: '105550199', reason: 'same telephone, names differ' }),
    );
  });

  it('keeps firms with different tax ids apart even when their names agree, and says why', async () => {
    const id = await save(ctx.lib, [
      { name: 'Horizon Machinery Ltd', cc: 'GB', tax: 'GB123456789' },
      { name: 'Horizon Machinery Limited', cc: 'GB', tax: 'GB987654321' },
      { name: 'HORIZON MACHINERY LTD', cc: 'GB' },
    ]);
    const gs = await groups(ctx.lib, id);
    expect(gs).toHaveLength(3);
    const review = await ctx.lib.firms.review({ datasetId: id }, { offset: 0, limit: 50 });
    expect(review.pairs.map((p) => p.reason)).toContain('different tax ids');
  });

  /**
   * The four spellings of the decision tests, and how they are looked up: a firm by a spelling's name
   * (its id), a spelling by its name (its party id).
   */
  async function decisionsDataset() {
    const id = await save(ctx.lib, [
      { name: 'Acme Co Ltd' },
      { name: 'ACME COMPANY LIMITED' },
      { name: 'Acme Holdings' },
      { name: 'Apex Trading' },
    ]);
    const idOf = async (name: string) =>
      (await listFirms(ctx.lib, { scope: { datasetId: id }, search: name, sort: 'rows', limit: 5 })).firms[0]!
        .firmId;
    return {
      id,
      list: async () => groups(ctx.lib, id),
      idOf,
      partyOf: async (name: string) => {
        const d = await ctx.lib.firms.firm(await idOf(name), {});
        return d.spellings.find((s) => s.name === name)!.partyId;
      },
    };
  }

  // The analyst's decisions, one behaviour a test: each decision resolves the whole library again, and
  // one test of them all (seven resolutions, some 290 reads one after another) took 2–8 s here on a
  // busy machine, too close to the 20 s a test gets in a loaded run of every suite.
  it('merges firms by the analyst’s decision, which the merged firm shows as its evidence', async () => {
    const { id, list, idOf } = await decisionsDataset();
    const status = await ctx.lib.firms.merge([await idOf('Acme Co Ltd'), await idOf('Acme Holdings')]);
    expect(status.decisions).toBe(1);
    expect(firmOf(await list(), 'Acme Holdings')).toHaveLength(3);
    const merged = await ctx.lib.firms.firm(await idOf('Acme Holdings'), { datasetId: id });
    expect(merged.evidence.map((e) => e.kind)).toContain('decision');
  });

  it('splits a spelling out of its firm, over the names’ evidence and an earlier merge', async () => {
    const { list, idOf, partyOf } = await decisionsDataset();
    await ctx.lib.firms.merge([await idOf('Acme Co Ltd'), await idOf('Acme Holdings')]);
    await ctx.lib.firms.split(await idOf('Acme Co Ltd'), [await partyOf('ACME COMPANY LIMITED')]);
    const after = await list();
    expect(firmOf(after, 'ACME COMPANY LIMITED')).toEqual(['ACME COMPANY LIMITED']);
    expect(firmOf(after, 'Acme Co Ltd')).toEqual(['Acme Co Ltd', 'Acme Holdings']);
  });

  it('takes a later verdict on the same pair in place of the earlier one', async () => {
    const { list, partyOf } = await decisionsDataset();
    await ctx.lib.firms.decide('same', await partyOf('Apex Trading'), await partyOf('Acme Co Ltd'));
    expect(firmOf(await list(), 'Apex Trading')).toEqual([
      'ACME COMPANY LIMITED',
      'Acme Co Ltd',
      'Apex Trading',
    ]);
    const before = (await ctx.lib.firms.decisions()).length;
    await ctx.lib.firms.decide('different', await partyOf('Apex Trading'), await partyOf('Acme Co Ltd'));
    expect((await ctx.lib.firms.decisions()).length).toBe(before);
    expect(firmOf(await list(), 'Apex Trading')).toEqual(['Apex Trading']);
  });

  it('undoes every decision back to what the evidence says, and keeps a spelling in every firm', async () => {
    const { list, idOf, partyOf } = await decisionsDataset();
    await ctx.lib.firms.merge([await idOf('Acme Co Ltd'), await idOf('Acme Holdings')]);
    await ctx.lib.firms.decide(
      'different',
      await partyOf('ACME COMPANY LIMITED'),
      await partyOf('Acme Co Ltd'),
    );
    expect(firmOf(await list(), 'ACME COMPANY LIMITED')).toEqual(['ACME COMPANY LIMITED']);
    const decisions = await ctx.lib.firms.decisions();
    expect(decisions).toHaveLength(2);
    for (const d of decisions) await ctx.lib.firms.undo(d.id);
    expect(await ctx.lib.firms.decisions()).toEqual([]);
    expect(firmOf(await list(), 'Acme Co Ltd')).toEqual(['ACME COMPANY LIMITED', 'Acme Co Ltd']);
    await expect(
      ctx.lib.firms.split(await idOf('Apex Trading'), [await partyOf('Apex Trading')]),
    ).rejects.toThrow(/at least one spelling/);
  });

  it('says where a firm’s shipments are, dataset by dataset, and finds a firm by any of its spellings’ ids', async () => {
    const first = await save(
      ctx.lib,
      [{ name: 'Acme Co Ltd' }, { name: 'ACME COMPANY LIMITED' }, { name: 'Apex Trading' }],
      'First',
    );
    const second = await save(ctx.lib, [{ name: 'Acme Co., Ltd.' }, { name: 'Apex Trading' }], 'Second');
    const acme = (await listFirms(ctx.lib, { scope: {}, search: 'acme', sort: 'rows', limit: 5 })).firms;
    expect(acme).toHaveLength(1);
    const detail = await ctx.lib.firms.firm(acme[0]!.firmId, {});
    expect(detail.spellings.map((s) => s.name).sort()).toEqual([
      'ACME COMPANY LIMITED',
      'Acme Co Ltd',
      'Acme Co., Ltd.',
    ]);
    // Every shipment dataset naming the firm in either role, most rows first.
    expect(detail.datasets.map((d) => ({ datasetId: d.datasetId, name: d.name, rows: d.rows }))).toEqual([
      { datasetId: first, name: 'First', rows: 2 },
      { datasetId: second, name: 'Second', rows: 1 },
    ]);
    expect(detail.datasets.every((d) => !Number.isNaN(Date.parse(d.fetchedAt)))).toBe(true);
    // Narrowed to one dataset, only that one.
    expect(
      (await ctx.lib.firms.firm(acme[0]!.firmId, { datasetId: second })).datasets.map((d) => d.datasetId),
    ).toEqual([second]);
    // The exporter of every row (one firm abroad) is in each dataset's every row.
    const harbor = (await listFirms(ctx.lib, { scope: {}, search: 'harbor', sort: 'rows', limit: 5 }))
      .firms[0]!;
    expect((await ctx.lib.firms.firm(harbor.firmId, {})).datasets.map((d) => d.rows)).toEqual([3, 2]);

    // Any spelling's id opens the firm holding it, also after a split moved it to a firm of its own.
    const other = detail.spellings.find((s) => s.partyId !== detail.firm.firmId)!;
    expect((await ctx.lib.firms.firm(other.partyId, {})).firm.firmId).toBe(detail.firm.firmId);
    await ctx.lib.firms.split(detail.firm.firmId, [other.partyId]);
    const moved = await ctx.lib.firms.firm(other.partyId, {});
    expect(moved.firm.firmId).toBe(other.partyId);
    expect(moved.spellings.map((s) => s.name)).toEqual([other.name]);
  });

  it('exports the decisions as an alias list of names and codes only, which another library imports', async () => {
    const id = await save(ctx.lib, [
      { name: 'Acme Co Ltd', code: 'C1', tax: '123456789', tel: '+86 21 5555 0101' },
      { name: 'Acme Holdings', code: 'C2' },
    ]);
    const ids = (
      await listFirms(ctx.lib, { scope: { datasetId: id }, search: 'acme', sort: 'name', limit: 5 })
    ).firms.map((f) => f.firmId);
    expect(ids).toHaveLength(2);
    await ctx.lib.firms.merge(ids);
    const file = await ctx.lib.firms.exportAliases();
    expect(file.format).toBe('portolan-firm-aliases');
    expect(file.decisions).toHaveLength(1);
    const textOfFile = JSON.stringify(file);
    for (const secretish of ['123456789', '5555', 'Harbor Supply', 'steel coil'])
      expect(textOfFile).not.toContain(secretish);
    expect(Object.keys(file.decisions[0]!.a).sort()).toEqual(['code', 'country', 'name']);

    // Into a library that holds the same firms from another source.
    for (const d of await ctx.lib.firms.decisions()) await ctx.lib.firms.undo(d.id);
    expect(await groups(ctx.lib, id)).toContainEqual(['Acme Holdings']);
    const result = await ctx.lib.firms.importAliases(JSON.parse(textOfFile));
    expect(result).toMatchObject({ added: 1, already: 0 });
    expect(await groups(ctx.lib, id)).toContainEqual(['Acme Co Ltd', 'Acme Holdings']);
    expect(await ctx.lib.firms.importAliases(JSON.parse(textOfFile))).toMatchObject({ added: 0, already: 1 });
    await expect(ctx.lib.firms.importAliases({ format: 'something else' })).rejects.toThrow(
      /not a Portolan alias list/,
    );
  });

  it('keeps the analyst’s merge and split across refreshes of the data and a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portolan-firms-kept-'));
    const parties: Party[] = [
      { name: 'Acme Co Ltd', code: 'A1' },
      { name: 'ACME COMPANY LIMITED', code: 'A2' },
      { name: 'Acme Holdings', code: 'A3' },
    ];
    try {
      let lib = await Library.open(dir);
      const first = await save(lib, parties, 'monday');
      const firmOfName = async (name: string) =>
        (await listFirms(lib, { scope: {}, search: name, sort: 'rows', limit: 5 })).firms[0]!.firmId;
      const partyOfName = async (name: string) =>
        (await lib.firms.firm(await firmOfName(name), {})).spellings.find((s) => s.name === name)!.partyId;
      await lib.firms.merge([await firmOfName('Acme Co Ltd'), await firmOfName('Acme Holdings')]);
      await lib.firms.split(await firmOfName('Acme Co Ltd'), [await partyOfName('ACME COMPANY LIMITED')]);
      const decided = [['Acme Co Ltd', 'Acme Holdings'], ['ACME COMPANY LIMITED']];
      expect((await groups(lib)).filter((g) => g.some((n) => n.startsWith('A')))).toEqual(decided);

      // The same search fetched again (a new snapshot, the old one deleted), then the app restarted.
      const second = await save(lib, [...parties, { name: 'ACME HOLDINGS', code: 'A5' }], 'tuesday');
      await lib.delete(first);
      await lib.close();
      lib = await Library.open(dir);
      try {
        const after = (await groups(lib, second)).filter((g) => g.some((n) => n.startsWith('A')));
        // A new spelling joins the firm its name agrees with; the decisions still hold.
        expect(after).toHaveLength(2);
        expect(after).toContainEqual(['ACME HOLDINGS', 'Acme Co Ltd', 'Acme Holdings']);
        expect(after).toContainEqual(['ACME COMPANY LIMITED']);
        const firm = await lib.firms.firm(await firmOfName('Acme Holdings'), {});
        expect(firm.evidence.map((e) => e.kind)).toContain('decision');
        expect(firm.decisions.length).toBeGreaterThan(0);
        // The split overruled the merge's decision that a moved spelling and a staying one were one firm.
        expect((await lib.firms.status()).decisions).toBe(2);
        // Merging them back overrules the split's "different firms".
        await lib.firms.merge([await firmOfName('Acme Holdings'), await firmOfName('ACME COMPANY LIMITED')]);
        expect((await groups(lib, second)).filter((g) => g.some((n) => n.startsWith('A')))).toEqual([
          ['ACME COMPANY LIMITED', 'ACME HOLDINGS', 'Acme Co Ltd', 'Acme Holdings'],
        ]);
      } finally {
        await lib.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives rows and exports the resolved firm of their importer and exporter, by the firm’s name', async () => {
    const id = await save(ctx.lib, [
      { name: 'Acme Co Ltd' },
      { name: 'Acme Co Ltd' },
      { name: 'ACME COMPANY LIMITED' },
      { name: 'Apex Trading' },
    ]);
    const block = await ctx.lib.getRows(id, { startRow: 0, endRow: 10, resolvedFirms: true });
    expect(block.rows.map((r) => [r.importerName, r.importerFirm, r.exporterFirm])).toEqual([
      ['Acme Co Ltd', 'Acme Co Ltd', 'Harbor Supply Inc.'],
      ['Acme Co Ltd', 'Acme Co Ltd', 'Harbor Supply Inc.'],
      // Named after the spelling most rows carry.
      ['ACME COMPANY LIMITED', 'Acme Co Ltd', 'Harbor Supply Inc.'],
      ['Apex Trading', 'Apex Trading', 'Harbor Supply Inc.'],
    ]);
    // Not asked for, not computed; asked for by name, alone.
    expect((await ctx.lib.getRows(id, { startRow: 0, endRow: 1 })).rows[0]).not.toHaveProperty(
      'importerFirm',
    );
    const named = await ctx.lib.getRows(id, {
      startRow: 0,
      endRow: 4,
      columns: ['importerName', 'importerFirm'],
      sortModel: [{ colId: 'importerName', sort: 'desc' }],
    });
    expect(named.rows.map((r) => Object.keys(r).sort())).toContainEqual([
      '_row',
      'importerFirm',
      'importerName',
    ]);

    // An export of the column, after the analyst merged Apex into Acme: the names follow the decision.
    const firms = await listFirms(ctx.lib, { scope: { datasetId: id }, sort: 'name', limit: 10 });
    const idOf = (name: string) => firms.firms.find((f) => f.name === name)!.firmId;
    await ctx.lib.firms.merge([idOf('Acme Co Ltd'), idOf('Apex Trading')]);
    const exported: unknown[][] = [];
    for await (const rows of ctx.lib.streamFieldRows(id, ['importerName', 'importerFirm']))
      exported.push(...rows);
    expect(exported).toEqual([
      ['Acme Co Ltd', 'Acme Co Ltd'],
      ['Acme Co Ltd', 'Acme Co Ltd'],
      ['ACME COMPANY LIMITED', 'Acme Co Ltd'],
      ['Apex Trading', 'Acme Co Ltd'],
    ]);
    await expect(
      ctx.lib.getRows(id, { startRow: 0, endRow: 1, columns: ['importerFirmName'] }),
    ).rejects.toThrow(/Unknown column/);
  });

  it('follows the library: a new dataset is resolved on the next read, a deleted one leaves', async () => {
    const first = await save(ctx.lib, [{ name: 'Acme Co Ltd' }], 'one');
    expect((await ctx.lib.firms.resolve()).parties).toBe(2);
    const second = await save(ctx.lib, [{ name: 'ACME COMPANY LIMITED' }, { name: 'Apex Trading' }], 'two');
    const all = await groups(ctx.lib);
    expect(firmOf(all, 'Acme Co Ltd')).toEqual(['ACME COMPANY LIMITED', 'Acme Co Ltd']);
    // In one dataset's scope a firm shows the spellings and rows of that dataset.
    const inFirst = await listFirms(ctx.lib, { scope: { datasetId: first }, sort: 'rows', limit: 10 });
    expect(inFirst.firms.map((f) => [f.name, f.asImporter, f.asExporter])).toEqual([
      ['Acme Co Ltd', 1, 0],
      ['Harbor Supply Inc.', 0, 1],
    ]);
    await ctx.lib.delete(second);
    expect(firmOf(await groups(ctx.lib), 'Acme Co Ltd')).toEqual(['Acme Co Ltd']);
    expect((await ctx.lib.firms.status()).parties).toBe(2);
    await expect(
      listFirms(ctx.lib, { scope: { datasetId: second }, sort: 'rows', limit: 5 }),
    ).rejects.toThrow(/not in the library/);
  });

  it('finds the simulator’s firms under their spellings (precision and recall against its truth)', async () => {
    const sim = new SimData({ records: 3000, seed: 5, hsSubheadings: loadHsSubheadings(HS_CSV), firms: 600 });
    // Every party once as importer, and no firm codes: a file from another tool.
    const P = sim.firms.length;
    const recs = sim.firms.map((f, i) => {
      const r = {
        ...sim.record(i % sim.size),
        ...partyFields(f, 'importer'),
        ...partyFields(sim.firms[(i * 7) % P]!, 'exporter'),
      };
      for (const p of ['importer', 'exporter'])
        for (const s of ['UrlCode', 'CleanUrl', 'TaCode']) r[`${p}${s}`] = '';
      return r;
    });
    await ctx.lib.saveRecords({ kind: 'shipments', request: {}, name: 'sim' }, recs);
    await ctx.lib.firms.resolve();
    const truth = new Map(sim.firms.map((f) => [`${f.countryCode}|${f.name.trim()}`, f.firmId]));
    const rows = await ctx.lib.reader.all(`SELECT country_key, name, firm_id FROM firm_parties`);
    const pairs = (xs: number[]) => (xs.length * (xs.length - 1)) / 2;
    const byFirm = new Map<string, number[]>();
    const byTruth = new Map<number, number>();
    for (const r of rows) {
      const t = truth.get(`${String(r.country_key)}|${String(r.name)}`);
      expect(t).toBeDefined();
      byFirm.set(String(r.firm_id), [...(byFirm.get(String(r.firm_id)) ?? []), t!]);
      byTruth.set(t!, (byTruth.get(t!) ?? 0) + 1);
    }
    let predicted = 0;
    let correct = 0;
    for (const members of byFirm.values()) {
      predicted += pairs(members);
      const counts = new Map<number, number>();
      for (const m of members) counts.set(m, (counts.get(m) ?? 0) + 1);
      for (const c of counts.values()) correct += (c * (c - 1)) / 2;
    }
    const actual = [...byTruth.values()].reduce((s, c) => s + (c * (c - 1)) / 2, 0);
    expect(actual).toBeGreaterThan(300);
    expect(correct / predicted).toBeGreaterThanOrEqual(0.98);
    expect(correct / actual).toBeGreaterThanOrEqual(0.9);
  });
});
