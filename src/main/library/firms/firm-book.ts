import { randomUUID } from 'node:crypto';
import { AppError } from '@shared/ipc/errors';
import {
  ALIAS_FILE_FORMAT,
  ALIAS_FILE_VERSION,
  EVIDENCE_KINDS,
  aliasFileSchema,
  type AliasFile,
  type DecisionView,
  type EvidenceKind,
  type EvidenceView,
  type FirmDatasetView,
  type FirmDetailView,
  type FirmListInput,
  type FirmListView,
  type FirmScope,
  type FirmSummaryView,
  type PartyRef,
  type PartyView,
  type ResolutionStatus,
  type ReviewListView,
  type ReviewPairView,
  type Verdict,
} from '@shared/resolution/resolution-contract';
import { toNumber, type Row, type SqlParams } from '../db';
import { firmFilterSql } from './firm-sql';
import type { FirmWriter } from './firm-writer';
import {
  resolutionFingerprint,
  type FirmReads,
  type ResolutionStep,
  type ResolutionSummary,
} from './resolve';

/** Runs `work` as one unit of the library's writes (`library.write`), with the firm tables' writer. */
export type FirmWrite = <T>(work: (tx: FirmWriter) => Promise<T>) => Promise<T>;

const EMPTY_STATUS: ResolutionStatus = {
  resolvedAt: null,
  parties: 0,
  firms: 0,
  merged: 0,
  review: 0,
  decisions: 0,
  ms: 0,
};

const KIND_ORDER: ReadonlyMap<string, number> = new Map(EVIDENCE_KINDS.map((k, i) => [k, i]));
const asKind = (v: unknown): EvidenceKind =>
  KIND_ORDER.has(String(v)) ? (String(v) as EvidenceKind) : 'similar';
const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const textOrNull = (v: unknown): string | null =>
  v === null || v === undefined || v === '' ? null : String(v);

/**
 * Rows naming each party in the scope, by role: the records' party fields joined to the parties as
 * written (`firm_party_keys`). $1 is the dataset id when the scope is one dataset.
 */
function scopedPartyCounts(scope: FirmScope): { sql: string; params: SqlParams } {
  const where = scope.datasetId
    ? 'dataset_id = $1'
    : `dataset_id IN (SELECT id FROM datasets WHERE status <> 'pending')`;
  const role = (p: 'importer' | 'exporter', imp: number) =>
    `SELECT "${p}Name" AS name, "${p}CountryCode" AS cc, "${p}Country" AS country, "${p}UrlCode" AS code,
            ${imp} AS imp, ${1 - imp} AS exp, 0 AS lst
       FROM shipment_rows WHERE ${where}`;
  const sql = `
    SELECT k.party_id, any_value(k.firm_id) AS firm_id, sum(c.imp) AS imp, sum(c.exp) AS exp, sum(c.lst) AS lst
      FROM (
        SELECT coalesce(name, '') AS name, coalesce(cc, '') AS cc, coalesce(country, '') AS country,
               coalesce(code, '') AS code, sum(imp) AS imp, sum(exp) AS exp, sum(lst) AS lst
          FROM (${role('importer', 1)} UNION ALL ${role('exporter', 0)} UNION ALL
                SELECT name, country_code, country, NULL, 0, 0, 1 FROM firm_rows WHERE ${where})
         GROUP BY ALL
      ) c
      JOIN firm_party_keys k
        ON k.name = c.name AND k.country_code = c.cc AND k.country = c.country AND k.url_code = c.code
     GROUP BY k.party_id`;
  return { sql, params: scope.datasetId ? [scope.datasetId] : [] };
}

function partyView(r: Row): PartyView {
  return {
    partyId: text(r.party_id),
    name: text(r.name),
    country: text(r.country_key),
    countryName: textOrNull(r.country),
    code: text(r.url_code),
    firmId: text(r.firm_id),
    asImporter: toNumber(r.imp),
    asExporter: toNumber(r.exp),
    listed: toNumber(r.lst),
  };
}

function refOf(p: { country: string; name: string; code: string }): PartyRef {
  return { country: p.country, name: p.name, code: p.code };
}

const sameRef = (x: PartyRef, y: PartyRef): boolean =>
  x.country === y.country && x.name === y.name && x.code === y.code;

/**
 * The library's firms: resolution on demand (again whenever the datasets or the decisions changed),
 * the firms of a dataset or of the whole library with their spellings and evidence, the review queue,
 * and the analyst's decisions with their alias list. Every read resolves first if the resolution is
 * out of date; resolutions run one at a time.
 */
export class FirmBook {
  private running: Promise<ResolutionSummary> | null = null;

  constructor(
    private readonly db: FirmReads,
    private readonly write: FirmWrite,
  ) {}

  async status(): Promise<ResolutionStatus> {
    const r = await this.db.one(
      `SELECT (SELECT summary_json FROM firm_resolution) AS summary, (SELECT count(*) FROM firm_decisions) AS decisions`,
    );
    const decisions = toNumber(r?.decisions);
    if (typeof r?.summary !== 'string') return { ...EMPTY_STATUS, decisions };
    const s = JSON.parse(r.summary) as ResolutionSummary;
    return {
      resolvedAt: s.resolvedAt,
      parties: s.parties,
      firms: s.firms,
      merged: s.merged,
      review: s.review,
      decisions,
      ms: s.ms,
    };
  }

  /** Resolves if the library or the decisions changed since the last resolution (or always, with `force`). */
  async resolve(
    opts: { force?: boolean; onStep?: (step: ResolutionStep) => void } = {},
  ): Promise<ResolutionStatus> {
    while (this.running) await this.running.catch(() => undefined);
    const fingerprint = await resolutionFingerprint(this.db);
    const last = await this.db.one(`SELECT fingerprint FROM firm_resolution`);
    if (opts.force || last?.fingerprint !== fingerprint) {
      this.running = this.write((tx) => tx.rebuild(fingerprint, opts.onStep ? { onStep: opts.onStep } : {}));
      try {
        await this.running;
      } finally {
        this.running = null;
      }
    }
    return this.status();
  }

  async list(q: FirmListInput): Promise<FirmListView> {
    const status = await this.resolve();
    await this.checkScope(q.scope);
    const counts = scopedPartyCounts(q.scope);
    const params: SqlParams = [...counts.params];
    const p = (v: string | number | boolean): string => {
      params.push(v);
      return `$${params.length}`;
    };
    const search = q.search?.trim().toLowerCase();
    const filters = [
      ...(search
        ? [
            `f.firm_id IN (SELECT firm_id FROM firm_parties
                            WHERE strpos(lower(name), ${p(search)}) > 0 OR strpos(lower(url_code), ${p(search)}) > 0)`,
          ]
        : []),
      ...(q.mergedOnly ? ['f.spellings > 1'] : []),
    ];
    const order =
      q.sort === 'name'
        ? 'lower(f.name), f.firm_id'
        : q.sort === 'spellings'
          ? 'f.spellings DESC, f.imp + f.exp + f.lst DESC, f.firm_id'
          : 'f.imp + f.exp + f.lst DESC, f.spellings DESC, f.firm_id';
    const rows = await this.db.all(
      `WITH counts AS (${counts.sql}),
      firms AS (
        SELECT c.firm_id, arg_max(p.name, c.imp + c.exp + c.lst) AS name, any_value(p.country_key) AS country_key,
               max(p.country) AS country, count(*) AS spellings,
               sum(c.imp) AS imp, sum(c.exp) AS exp, sum(c.lst) AS lst
          FROM counts c JOIN firm_parties p ON p.party_id = c.party_id
         GROUP BY c.firm_id
      ),
      shown AS (SELECT * FROM firms f ${filters.length ? `WHERE ${filters.join(' AND ')}` : ''})
      SELECT f.*, (SELECT count(*) FROM shown) AS total,
             (SELECT list(DISTINCT e.kind) FROM firm_evidence e WHERE e.firm_id = f.firm_id) AS kinds
        FROM shown f
       ORDER BY ${order}
       LIMIT ${p(q.limit)} OFFSET ${p(q.offset)}`,
      params,
    );
    return {
      firms: rows.map((r) => this.summaryView(r)),
      total: toNumber(rows[0]?.total),
      status,
    };
  }

  /**
   * A firm with its spellings, evidence, datasets, review pairs and decisions. A firm's id is the id of
   * one of its spellings, so an id from before a merge or a split finds the firm that spelling belongs
   * to now (its `firm.firmId` says which).
   */
  async firm(requestedId: string, scope: FirmScope): Promise<FirmDetailView> {
    await this.resolve();
    await this.checkScope(scope);
    const holder = await this.db.one(`SELECT firm_id FROM firm_parties WHERE party_id = $1`, [requestedId]);
    const firmId = holder ? text(holder.firm_id) : requestedId;
    const counts = scopedPartyCounts(scope);
    const n = counts.params.length;
    const spellings = (
      await this.db.all(
        `WITH counts AS (${counts.sql})
        SELECT p.*, coalesce(c.imp, 0) AS imp, coalesce(c.exp, 0) AS exp, coalesce(c.lst, 0) AS lst
          FROM firm_parties p LEFT JOIN counts c USING (party_id)
         WHERE p.firm_id = $${n + 1}
         ORDER BY coalesce(c.imp, 0) + coalesce(c.exp, 0) + coalesce(c.lst, 0) DESC, p.rows DESC, p.name`,
        [...counts.params, firmId],
      )
    ).map(partyView);
    if (spellings.length === 0) {
      throw new AppError(
        'NotFound',
        'That firm is no longer in the library (its datasets may have been deleted).',
      );
    }
    const evidence = (
      await this.db.all(`SELECT * FROM firm_evidence WHERE firm_id = $1 ORDER BY party_a, party_b`, [firmId])
    ).map((r): EvidenceView => ({
      a: text(r.party_a),
      b: text(r.party_b),
      kind: asKind(r.kind),
      value: text(r.value),
      score: Number(r.score),
    }));
    evidence.sort((x, y) => (KIND_ORDER.get(x.kind) ?? 0) - (KIND_ORDER.get(y.kind) ?? 0));
    const review = await this.reviewPairs(scope, { firmId, offset: 0, limit: 200 });
    const refs = spellings.map((s) => refOf(s));
    const decisions = (await this.decisions()).filter((d) =>
      refs.some((r) => sameRef(r, d.a) || sameRef(r, d.b)),
    );
    const datasets = await this.firmDatasets(firmId, scope);
    const top = spellings[0] as PartyView;
    const kinds = [...new Set(evidence.map((e) => e.kind))];
    kinds.sort((x, y) => (KIND_ORDER.get(x) ?? 0) - (KIND_ORDER.get(y) ?? 0));
    const firm: FirmSummaryView = {
      firmId,
      name: top.name,
      country: top.country,
      countryName: spellings.find((s) => s.countryName)?.countryName ?? null,
      spellings: spellings.filter((s) => s.asImporter + s.asExporter + s.listed > 0).length,
      asImporter: spellings.reduce((s, x) => s + x.asImporter, 0),
      asExporter: spellings.reduce((s, x) => s + x.asExporter, 0),
      listed: spellings.reduce((s, x) => s + x.listed, 0),
      evidence: kinds,
    };
    return { firm, spellings, datasets, evidence, review: review.pairs, decisions };
  }

  /** The shipment datasets of the scope with rows naming the firm in either role, most rows first. */
  private async firmDatasets(firmId: string, scope: FirmScope): Promise<FirmDatasetView[]> {
    const rows = await this.db.all(
      `SELECT s.dataset_id, any_value(d.name) AS name, any_value(d.fetched_at) AS fetched_at, count(*) AS rows
         FROM shipment_rows s JOIN datasets d ON d.id = s.dataset_id
        WHERE d.status <> 'pending' ${scope.datasetId ? 'AND s.dataset_id = $2' : ''}
          AND ${firmFilterSql(['importer', 'exporter'], '$1')}
        GROUP BY s.dataset_id
        ORDER BY rows DESC, name`,
      scope.datasetId ? [firmId, scope.datasetId] : [firmId],
    );
    return rows.map((r) => ({
      datasetId: text(r.dataset_id),
      name: text(r.name),
      fetchedAt: text(r.fetched_at),
      rows: toNumber(r.rows),
    }));
  }

  async review(scope: FirmScope, page: { offset: number; limit: number }): Promise<ReviewListView> {
    await this.resolve();
    await this.checkScope(scope);
    return this.reviewPairs(scope, page);
  }

  /** Open review pairs with at least one side in the scope (and in `firmId`, when given), closest first. */
  private async reviewPairs(
    scope: FirmScope,
    page: { offset: number; limit: number; firmId?: string },
  ): Promise<ReviewListView> {
    const counts = scopedPartyCounts(scope);
    const params: SqlParams = [...counts.params];
    const p = (v: string | number): string => {
      params.push(v);
      return `$${params.length}`;
    };
    const firmFilter = page.firmId
      ? `AND (a.firm_id = ${p(page.firmId)} OR b.firm_id = $${params.length})`
      : '';
    const cols = (t: string, c: string) =>
      `${t}.party_id AS ${t}_party_id, ${t}.name AS ${t}_name, ${t}.country_key AS ${t}_country_key,
       ${t}.country AS ${t}_country, ${t}.url_code AS ${t}_url_code, ${t}.firm_id AS ${t}_firm_id,
       coalesce(${c}.imp, 0) AS ${t}_imp, coalesce(${c}.exp, 0) AS ${t}_exp, coalesce(${c}.lst, 0) AS ${t}_lst`;
    const rows = await this.db.all(
      `WITH counts AS (${counts.sql}),
      pairs AS (
        SELECT r.kind, r.value, r.score, r.reason, ${cols('a', 'ca')}, ${cols('b', 'cb')}
          FROM firm_review r
          JOIN firm_parties a ON a.party_id = r.party_a JOIN firm_parties b ON b.party_id = r.party_b
          LEFT JOIN counts ca ON ca.party_id = r.party_a LEFT JOIN counts cb ON cb.party_id = r.party_b
         WHERE (ca.party_id IS NOT NULL OR cb.party_id IS NOT NULL) ${firmFilter}
      )
      SELECT *, (SELECT count(*) FROM pairs) AS total
        FROM pairs
       ORDER BY score DESC, a_name, b_name
       LIMIT ${p(page.limit)} OFFSET ${p(page.offset)}`,
      params,
    );
    const side = (r: Row, t: 'a' | 'b'): PartyView =>
      partyView({
        party_id: r[`${t}_party_id`] ?? null,
        name: r[`${t}_name`] ?? null,
        country_key: r[`${t}_country_key`] ?? null,
        country: r[`${t}_country`] ?? null,
        url_code: r[`${t}_url_code`] ?? null,
        firm_id: r[`${t}_firm_id`] ?? null,
        imp: r[`${t}_imp`] ?? null,
        exp: r[`${t}_exp`] ?? null,
        lst: r[`${t}_lst`] ?? null,
      });
    return {
      pairs: rows.map((r): ReviewPairView => ({
        a: side(r, 'a'),
        b: side(r, 'b'),
        kind: asKind(r.kind),
        value: text(r.value),
        score: Number(r.score),
        reason: text(r.reason),
      })),
      total: toNumber(rows[0]?.total),
    };
  }

  // ---- the analyst's decisions ----

  async decisions(): Promise<DecisionView[]> {
    const rows = await this.db.all(`SELECT * FROM firm_decisions ORDER BY decided_at, id`);
    return rows.map((r) => ({
      id: text(r.id),
      verdict: r.verdict === 'different' ? 'different' : 'same',
      a: { country: text(r.a_country), name: text(r.a_name), code: text(r.a_code) },
      b: { country: text(r.b_country), name: text(r.b_name), code: text(r.b_code) },
      decidedAt: text(r.decided_at),
    }));
  }

  /** Two spellings are one firm, or two. A verdict on the same pair replaces the earlier one. */
  async decide(verdict: Verdict, a: string, b: string): Promise<ResolutionStatus> {
    if (a === b) throw new AppError('InvalidInput', 'Choose two different spellings.');
    const [ra, rb] = await this.refs([a, b]);
    await this.record([{ verdict, a: ra as PartyRef, b: rb as PartyRef }]);
    return this.resolve();
  }

  /**
   * The given firms become one. Earlier decisions that two of their spellings are different firms give
   * way to this one.
   */
  async merge(firmIds: readonly string[]): Promise<ResolutionStatus> {
    const ids = [...new Set(firmIds)];
    if (ids.length < 2) throw new AppError('InvalidInput', 'Choose at least two firms to merge.');
    // A firm's id is the id of its first spelling.
    const refs = await this.refs(ids);
    const first = refs[0] as PartyRef;
    const members = await Promise.all(ids.map((id) => this.memberRefs(id)));
    await this.record(
      refs.slice(1).map((r) => ({ verdict: 'same' as const, a: first, b: r })),
      members.flatMap((m, i) =>
        members.slice(i + 1).map((other) => ({ verdict: 'different' as const, left: m, right: other })),
      ),
    );
    return this.resolve();
  }

  /**
   * The given spellings leave their firm and form one of their own. Recorded as decisions: the moved
   * spellings are one firm, the ones left are one firm, and the two are different firms; earlier
   * decisions that a moved spelling and a staying one are one firm give way.
   */
  async split(firmId: string, partyIds: readonly string[]): Promise<ResolutionStatus> {
    await this.resolve();
    const members = (
      await this.db.all(`SELECT party_id FROM firm_parties WHERE firm_id = $1 ORDER BY party_id`, [firmId])
    ).map((r) => text(r.party_id));
    if (members.length === 0) throw new AppError('NotFound', 'That firm is no longer in the library.');
    const moved = members.filter((m) => partyIds.includes(m));
    const kept = members.filter((m) => !partyIds.includes(m));
    if (moved.length !== new Set(partyIds).size) {
      throw new AppError('InvalidInput', 'Some of those spellings are not spellings of this firm.');
    }
    if (kept.length === 0) throw new AppError('InvalidInput', 'Leave at least one spelling in the firm.');
    const all = await this.refs([...moved, ...kept]);
    const m = all.slice(0, moved.length);
    const k = all.slice(moved.length);
    const chain = (list: PartyRef[]) =>
      list.slice(1).map((r) => ({ verdict: 'same' as const, a: list[0] as PartyRef, b: r }));
    await this.record(
      [...chain(m), ...chain(k), { verdict: 'different', a: m[0] as PartyRef, b: k[0] as PartyRef }],
      [{ verdict: 'same', left: m, right: k }],
    );
    return this.resolve();
  }

  async undo(decisionId: string): Promise<ResolutionStatus> {
    const hit = await this.db.one(`SELECT id FROM firm_decisions WHERE id = $1`, [decisionId]);
    if (!hit) throw new AppError('NotFound', 'That decision is no longer in the list.');
    await this.write((tx) => tx.deleteDecision(decisionId));
    return this.resolve();
  }

  /** The alias list: every decision, by the names and codes of the spellings it names. */
  async exportAliases(): Promise<AliasFile> {
    return {
      format: ALIAS_FILE_FORMAT,
      version: ALIAS_FILE_VERSION,
      exportedAt: new Date().toISOString(),
      decisions: (await this.decisions()).map((d) => ({
        verdict: d.verdict,
        a: d.a,
        b: d.b,
        decidedAt: d.decidedAt,
      })),
    };
  }

  /** Adds an alias list's decisions (a later verdict on the same pair wins), then resolves. */
  async importAliases(file: unknown): Promise<{ added: number; already: number; status: ResolutionStatus }> {
    const parsed = aliasFileSchema.safeParse(file);
    if (!parsed.success) {
      throw new AppError(
        'InvalidInput',
        'That file is not a Portolan alias list (firm decisions exported from Portolan).',
      );
    }
    const { added, already } = await this.record(parsed.data.decisions);
    return { added, already, status: await this.resolve() };
  }

  /** The names and codes of every spelling of a firm. */
  private async memberRefs(firmId: string): Promise<PartyRef[]> {
    const rows = await this.db.all(
      `SELECT country_key, name, url_code FROM firm_parties WHERE firm_id = $1`,
      [firmId],
    );
    return rows.map((r) => ({ country: text(r.country_key), name: text(r.name), code: text(r.url_code) }));
  }

  /** The names and codes of the given parties, in order. */
  private async refs(partyIds: readonly string[]): Promise<PartyRef[]> {
    await this.resolve();
    const rows = await this.db.all(
      `SELECT party_id, country_key, name, url_code FROM firm_parties
        WHERE party_id IN (${partyIds.map((_, i) => `$${i + 1}`).join(', ')})`,
      [...partyIds],
    );
    const byId = new Map(rows.map((r) => [text(r.party_id), r]));
    return partyIds.map((id) => {
      const r = byId.get(id);
      if (!r) throw new AppError('NotFound', 'That spelling is no longer in the library.');
      return { country: text(r.country_key), name: text(r.name), code: text(r.url_code) };
    });
  }

  /**
   * Stores decisions: one already there with the same verdict is left alone; one with the other
   * verdict on the same pair is replaced. `overruled` removes, in the same transaction, the earlier
   * decisions of a verdict between a spelling on the left and one on the right.
   */
  private async record(
    list: readonly { verdict: Verdict; a: PartyRef; b: PartyRef; decidedAt?: string | undefined }[],
    overruled: readonly { verdict: Verdict; left: readonly PartyRef[]; right: readonly PartyRef[] }[] = [],
  ): Promise<{ added: number; already: number }> {
    const all = await this.decisions();
    const on = (side: readonly PartyRef[], r: PartyRef) => side.some((x) => sameRef(x, r));
    const dropped = all.filter((d) =>
      overruled.some(
        (o) =>
          o.verdict === d.verdict &&
          ((on(o.left, d.a) && on(o.right, d.b)) || (on(o.left, d.b) && on(o.right, d.a))),
      ),
    );
    const existing = all.filter((d) => !dropped.includes(d));
    const key = (a: PartyRef, b: PartyRef) => {
      const [x, y] = [JSON.stringify(refOf(a)), JSON.stringify(refOf(b))].sort();
      return `${x}|${y}`;
    };
    const byPair = new Map(existing.map((d) => [key(d.a, d.b), d]));
    let added = 0;
    let already = 0;
    await this.write(async (tx) => {
      for (const d of dropped) await tx.deleteDecision(d.id);
      for (const d of list) {
        if (sameRef(d.a, d.b)) continue;
        const k = key(d.a, d.b);
        const old = byPair.get(k);
        if (old?.verdict === d.verdict) {
          already++;
          continue;
        }
        if (old) await tx.deleteDecision(old.id);
        const decidedAt =
          d.decidedAt && !Number.isNaN(Date.parse(d.decidedAt)) ? d.decidedAt : new Date().toISOString();
        const stored = { id: randomUUID(), verdict: d.verdict, a: d.a, b: d.b, decidedAt };
        await tx.addDecision(stored);
        byPair.set(k, stored);
        added++;
      }
    });
    return { added, already };
  }

  private async checkScope(scope: FirmScope): Promise<void> {
    if (!scope.datasetId) return;
    const r = await this.db.one(`SELECT 1 AS ok FROM datasets WHERE id = $1 AND status <> 'pending'`, [
      scope.datasetId,
    ]);
    if (!r) throw new AppError('NotFound', 'That dataset is not in the library (it may have been deleted).');
  }

  private summaryView(r: Row): FirmSummaryView {
    const kinds = (Array.isArray(r.kinds) ? r.kinds : []).map(asKind);
    kinds.sort((x, y) => (KIND_ORDER.get(x) ?? 0) - (KIND_ORDER.get(y) ?? 0));
    return {
      firmId: text(r.firm_id),
      name: text(r.name),
      country: text(r.country_key),
      countryName: textOrNull(r.country),
      spellings: toNumber(r.spellings),
      asImporter: toNumber(r.imp),
      asExporter: toNumber(r.exp),
      listed: toNumber(r.lst),
      evidence: kinds,
    };
  }
}
