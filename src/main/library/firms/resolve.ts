import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { EVIDENCE_KINDS, type EvidenceKind } from '@shared/resolution/resolution-contract';
import { readIn, toNumber, type Row, type SqlParams } from '../db';
import { evidenceValues, normalisedNames } from './normalise';

/**
 * Firm resolution over the whole library: every party (a name as written, in a country, with the
 * UrlCode it came with) grouped into firms by the strongest evidence first — an analyst's decision, the
 * same UrlCode, the same tax id within a country, the same telephone, e-mail or web domain within a
 * country with names that agree, then names that agree after normalisation — scored in DuckDB SQL.
 * Groups keep the links that made them (`firm_evidence`); close calls that were not linked wait for an
 * analyst (`firm_review`).
 */

/**
 * Thresholds, chosen against the simulator's truth (`npm run bench -- firm-resolution`):
 * - a value (tax id, telephone, e-mail, domain) shared by more parties than `hub` is somebody's
 *   placeholder or a forwarding agent's, not a firm's, and links nothing;
 * - contact details link two parties only when their names agree: at most `contactEdits` of every ten
 *   characters differ (Levenshtein over the normalised names without spaces). Group companies share a
 *   web domain and agents a telephone, and their names differ by a word;
 * - names of at least `minLength` characters link when one edit apart (a typing slip, a
 *   transliteration), or two apart when at least `twoEditsLength` long and reading alike from both ends
 *   (Jaro-Winkler both ways at least `twoEditsJw`): "Weber Kunststoffe" and "Meyer Kunststoffe" stay
 *   apart;
 * - names one or two edits apart that are not linked but read alike (Jaro-Winkler either way at least
 *   `reviewJw`) go to the review queue.
 */
export const RESOLUTION_RULES = {
  hub: 6,
  contactEdits: 2,
  minLength: 6,
  twoEditsLength: 16,
  twoEditsJw: 0.95,
  reviewJw: 0.9,
} as const;

/** Evidence that holds even between parties whose tax ids differ. */
const OVERRIDES_TAX_CONFLICT: ReadonlySet<EvidenceKind> = new Set(['decision', 'code', 'tax']);

export interface ResolutionSummary {
  parties: number;
  firms: number;
  /** Firms written more than one way. */
  merged: number;
  review: number;
  resolvedAt: string;
  /** How long the resolution took. */
  ms: number;
}

/** Rows of both party roles and of firm lists, as (name, country code, country, code, evidence fields). */
function partyOccurrences(): string {
  const live = `dataset_id IN (SELECT id FROM datasets WHERE status <> 'pending')`;
  const role = (p: 'importer' | 'exporter') =>
    `SELECT "${p}Name" AS name, "${p}CountryCode" AS cc, "${p}Country" AS country, "${p}UrlCode" AS code,
            "${p}TaxId" AS tax, "${p}Tel" AS tel, "${p}Email" AS email, "${p}Web" AS web
       FROM shipment_rows WHERE ${live}`;
  return `${role('importer')} UNION ALL ${role('exporter')} UNION ALL
    SELECT name, country_code, country, NULL, NULL, tel, e_mail, web FROM firm_rows WHERE ${live}`;
}

/** What a resolution depends on: the datasets in the library and the analyst's decisions. */
/** The reads firm resolution needs: the library's read-only SQL. */
export interface FirmReads {
  all(sql: string, params?: SqlParams): Promise<Row[]>;
  one(sql: string, params?: SqlParams): Promise<Row | undefined>;
}

export async function resolutionFingerprint(db: FirmReads): Promise<string> {
  const r = await db.one(
    `SELECT md5(coalesce((SELECT string_agg(id || ':' || stored_rows, ',' ORDER BY id) FROM datasets WHERE status <> 'pending'), '')
              || '|' || coalesce((SELECT string_agg(id, ',' ORDER BY id) FROM firm_decisions), '')) AS f`,
  );
  return String(r?.f ?? '');
}

type Run = (sql: string, params?: DuckDBValue[]) => Promise<unknown>;
type Done = (step: string) => void;

/** Where a resolution's time went, step by step (for the benchmark). */
export interface ResolutionStep {
  name: string;
  ms: number;
  /** CPU time of the process (DuckDB's threads included). */
  cpuMs: number;
}

/**
 * Parties and their evidence. A party is a name, a country and a UrlCode as written (trimmed); a country
 * written only by name takes the code other rows give that name. Each party gets a dense index `idx`,
 * in party id order, that the links and the grouping use.
 */
async function collectParties(run: Run, done: Done): Promise<void> {
  await run(`CREATE OR REPLACE TEMP TABLE fr_raw AS
    SELECT coalesce(name, '') AS name, coalesce(cc, '') AS cc, coalesce(country, '') AS country,
           coalesce(code, '') AS code, tax, tel, email, web, count(*) AS n
      FROM (${partyOccurrences()}) GROUP BY ALL`);
  done('reading the rows');
  await run(`CREATE OR REPLACE TEMP TABLE fr_key AS
    WITH names AS (
      SELECT upper(trim(country)) AS country_name, mode(upper(trim(cc))) AS code
        FROM fr_raw WHERE trim(cc) <> '' AND trim(country) <> '' GROUP BY 1
    ), keys AS (
      SELECT k.name, k.cc, k.country, k.code, trim(k.name) AS party_name, trim(k.code) AS party_code,
             coalesce(nullif(upper(trim(k.cc)), ''), names.code, upper(trim(k.country))) AS country_key
        FROM (SELECT DISTINCT name, cc, country, code FROM fr_raw) k
        LEFT JOIN names ON names.country_name = upper(trim(k.country))
       WHERE trim(k.name) <> '' OR trim(k.code) <> ''
    )
    SELECT *, md5(country_key || chr(31) || party_name || chr(31) || party_code) AS party_id FROM keys`);
  await run(`CREATE OR REPLACE TEMP TABLE fr_party AS
    WITH rows AS (
      SELECT k.party_id, sum(r.n) AS rows FROM fr_raw r JOIN fr_key k USING (name, cc, country, code) GROUP BY 1
    ), names AS (
      SELECT name AS party_name, norm FROM (${normalisedNames('(SELECT DISTINCT party_name AS name FROM fr_key)')})
    ), parties AS (
      SELECT k.party_id, any_value(k.country_key) AS country_key, any_value(k.party_name) AS name,
             any_value(k.party_code) AS code, max(nullif(trim(k.cc), '')) AS country_code,
             max(nullif(trim(k.country), '')) AS country, any_value(names.norm) AS norm,
             any_value(rows.rows) AS rows
        FROM fr_key k JOIN names USING (party_name) JOIN rows USING (party_id)
       GROUP BY k.party_id
    )
    SELECT CAST(row_number() OVER (ORDER BY party_id) - 1 AS INTEGER) AS idx, *, replace(norm, ' ', '') AS compact
      FROM parties`);
  done('parties and their names');
  await run(`CREATE OR REPLACE TEMP TABLE fr_value AS
    SELECT DISTINCT idx, country_key, v.kind AS kind, v.value AS value FROM (
      SELECT idx, country_key, unnest([
        {'kind': 'tax', 'value': tax_value}, {'kind': 'phone', 'value': phone_value},
        {'kind': 'email', 'value': email_value}, {'kind': 'domain', 'value': web_domain},
        {'kind': 'domain', 'value': mail_domain}
      ]) AS v
        FROM (${evidenceValues(`(SELECT p.idx, p.country_key, r.tax, r.tel, r.email, r.web
                                  FROM fr_raw r JOIN fr_key k USING (name, cc, country, code)
                                  JOIN fr_party p USING (party_id))`)})
    ) WHERE v.value IS NOT NULL`);
  done('evidence values');
}

/**
 * Every link, with the value that made it: stars to a group's first party where sharing the value is
 * enough (UrlCode, tax id, the same normalised name), pairs where each pair needs a look at the names
 * (contact details, similar names).
 */
async function collectLinks(run: Run, done: Done): Promise<void> {
  const R = RESOLUTION_RULES;
  await run(
    `CREATE OR REPLACE TEMP TABLE fr_edge (a INTEGER, b INTEGER, kind VARCHAR, value VARCHAR, score DOUBLE)`,
  );
  await run(`INSERT INTO fr_edge
    SELECT idx, min(idx) OVER (PARTITION BY code), 'code', code, 1 FROM fr_party WHERE code <> ''`);
  await run(
    `INSERT INTO fr_edge
    SELECT idx, min(idx) OVER (PARTITION BY country_key, value), 'tax', value, 1
      FROM (SELECT *, count(*) OVER (PARTITION BY country_key, value) AS c FROM fr_value WHERE kind = 'tax')
     WHERE c BETWEEN 2 AND $1`,
    [R.hub],
  );
  // Contact details, scored by how far the names are apart (1 = the same, 0 = nothing alike).
  await run(
    `INSERT INTO fr_edge
    WITH shared AS (
      SELECT * FROM (SELECT *, count(*) OVER (PARTITION BY country_key, kind, value) AS c
                       FROM fr_value WHERE kind IN ('phone', 'email', 'domain'))
       WHERE c BETWEEN 2 AND $1
    )
    SELECT x.idx, y.idx, x.kind, x.value,
           CASE WHEN pa.compact = '' OR pb.compact = '' THEN 0
                ELSE 1 - levenshtein(pa.compact, pb.compact) / greatest(length(pa.compact), length(pb.compact)) END
      FROM shared x JOIN shared y ON x.country_key = y.country_key AND x.kind = y.kind AND x.value = y.value
                                 AND x.idx < y.idx
      JOIN fr_party pa ON pa.idx = x.idx JOIN fr_party pb ON pb.idx = y.idx`,
    [R.hub],
  );
  done('codes, tax ids and contact details');
  await run(`INSERT INTO fr_edge
    SELECT idx, min(idx) OVER (PARTITION BY country_key, compact), 'name', norm, 1 FROM fr_party WHERE compact <> ''`);
  // Similar names, within a country. Candidates are names one deletion apart: two names within one
  // edit (a letter dropped, added, changed, or two swapped) always share a spelling with at most one
  // letter deleted from each, so joining on those finds every such pair, and the pairs two slips
  // apart, without comparing each name with every other.
  await run(
    `CREATE OR REPLACE TEMP TABLE fr_alike AS
    WITH names AS (
      SELECT country_key, compact, any_value(norm) AS norm, min(idx) AS rep
        FROM fr_party WHERE length(compact) >= $1 GROUP BY country_key, compact
    ), deletions AS (
      SELECT country_key, compact, norm, rep,
             CASE WHEN i = 0 THEN compact ELSE left(compact, i - 1) || substr(compact, i + 1) END AS variant
        FROM (SELECT *, unnest(range(length(compact) + 1)) AS i FROM names)
    ), pairs AS (
      SELECT DISTINCT x.rep AS rep_a, y.rep AS rep_b, x.norm AS norm_a, y.norm AS norm_b, x.compact AS a, y.compact AS b
        FROM deletions x JOIN deletions y
          ON x.country_key = y.country_key AND x.variant = y.variant AND x.compact < y.compact
    )
    SELECT *, jaro_winkler_similarity(a, b) AS jw, jaro_winkler_similarity(reverse(a), reverse(b)) AS jwr,
           least(length(a), length(b)) AS len
      FROM pairs`,
    [R.minLength - 2],
  );
  // Levenshtein first (a fifth of the cost of Damerau-Levenshtein in DuckDB); only a distance of two
  // may be one transposition.
  await run(
    `INSERT INTO fr_edge
    SELECT rep_a, rep_b,
           CASE WHEN (dl <= 1 AND len >= $1) OR (dl <= 2 AND len >= $2 AND least(jw, jwr) >= $3)
                THEN 'similar' ELSE 'review' END,
           norm_a || ' ~ ' || norm_b, least(jw, jwr)
      FROM (SELECT *, CASE WHEN lev = 2 THEN damerau_levenshtein(a, b) ELSE lev END AS dl
              FROM (SELECT *, levenshtein(a, b) AS lev FROM fr_alike))
     WHERE greatest(jw, jwr) >= $4`,
    [R.minLength, R.twoEditsLength, R.twoEditsJw, R.reviewJw],
  );
  done('similar names');
  // The analyst's decisions, by the parties they name.
  await run(`INSERT INTO fr_edge
    SELECT pa.idx, pb.idx, CASE d.verdict WHEN 'same' THEN 'decision' ELSE 'different' END, d.id, 1
      FROM firm_decisions d
      JOIN fr_party pa ON pa.country_key = d.a_country AND pa.name = d.a_name AND pa.code = d.a_code
      JOIN fr_party pb ON pb.country_key = d.b_country AND pb.name = d.b_name AND pb.code = d.b_code`);
}

/** Why a review pair was not joined, by code. */
const REVIEW_REASONS = [
  'similar names',
  'same telephone, names differ',
  'same e-mail, names differ',
  'same web domain, names differ',
  'different tax ids',
] as const;

interface Outcome {
  /** The group of each party, as the index of its first party. */
  firstOf: Int32Array;
  /** Links (`fr_link.eid`) that joined two groups: the evidence of the firms. */
  kept: number[];
  /** Links left for the analyst, with the index of their reason in REVIEW_REASONS. */
  review: [number, number][];
}

/**
 * Grouping: links taken strongest first (within a kind, best score first); a link never joins groups an
 * analyst decided apart, and only decisions, UrlCodes and tax ids join groups whose tax ids differ.
 * Contact details join only parties whose names agree; those that do not, and similar names that are
 * not close enough, wait for review. Only numbers cross into JavaScript: the links are numbered in SQL
 * (`fr_link`) and their values stay there.
 */
async function group(conn: DuckDBConnection, run: Run): Promise<Outcome> {
  const R = RESOLUTION_RULES;
  const kinds = [...EVIDENCE_KINDS, 'review', 'different'] as const;
  const kindCode = `CASE kind ${kinds.map((k, i) => `WHEN '${k}' THEN ${i}`).join(' ')} END`;
  await run(`CREATE OR REPLACE TEMP TABLE fr_link AS
    SELECT CAST(row_number() OVER (ORDER BY ${kindCode}, score DESC, a, b) - 1 AS INTEGER) AS eid, *,
           ${kindCode} AS k
      FROM fr_edge WHERE a <> b`);
  const n = toNumber((await readIn(conn, `SELECT count(*) AS n FROM fr_party`))[0]?.n);
  const groups = new Grouping(n);
  const [taxIdx = [], taxValues = []] = (
    await conn.runAndReadAll(`SELECT idx, list(value) FROM fr_value WHERE kind = 'tax' GROUP BY idx`)
  ).getColumnsJson();
  for (let i = 0; i < taxIdx.length; i++) groups.setTaxIds(Number(taxIdx[i]), taxValues[i] as string[]);
  const [as = [], bs = [], ks = [], scores = []] = (
    await conn.runAndReadAll(`SELECT a, b, k, score FROM fr_link ORDER BY eid`)
  ).getColumnsJson();
  const code = (k: (typeof kinds)[number]) => kinds.indexOf(k);
  const [DIFFERENT, REVIEW, PHONE, EMAIL, DOMAIN] = [
    code('different'),
    code('review'),
    code('phone'),
    code('email'),
    code('domain'),
  ];
  const overrides = new Set([...OVERRIDES_TAX_CONFLICT].map((k) => code(k)));
  for (let i = 0; i < as.length; i++) if (ks[i] === DIFFERENT) groups.forbid(Number(as[i]), Number(bs[i]));
  const kept: number[] = [];
  const review: [number, number][] = [];
  for (let eid = 0; eid < as.length; eid++) {
    const k = Number(ks[eid]);
    const a = Number(as[eid]);
    const b = Number(bs[eid]);
    if (k === DIFFERENT) continue;
    if (k === REVIEW) {
      review.push([eid, 0]);
      continue;
    }
    if ((k === PHONE || k === EMAIL || k === DOMAIN) && Number(scores[eid]) < 1 - R.contactEdits / 10) {
      review.push([eid, k === PHONE ? 1 : k === EMAIL ? 2 : 3]);
      continue;
    }
    const outcome = groups.join(a, b, overrides.has(k));
    if (outcome === 'joined') kept.push(eid);
    else if (outcome === 'tax conflict') review.push([eid, 4]);
  }
  const firstOf = new Int32Array(n);
  for (let i = 0; i < n; i++) firstOf[i] = groups.firstOf(i);
  // A review pair whose parties ended up in one firm anyway is settled; one pair per two firms is enough.
  const seen = new Set<string>();
  const open = review.filter(([eid]) => {
    const a = Number(as[eid]);
    const b = Number(bs[eid]);
    const fa = firstOf[a] as number;
    const fb = firstOf[b] as number;
    if (fa === fb || groups.apart(a, b)) return false;
    const key = fa < fb ? `${fa}:${fb}` : `${fb}:${fa}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { firstOf, kept, review: open };
}

/**
 * Rebuilds every firm_* result table (all but the decisions) on the connection of the caller's unit of
 * work (`FirmWriter.rebuild`), so a failure part way leaves the last resolution as it was.
 */
export async function rebuildFirms(
  conn: DuckDBConnection,
  fingerprint: string,
  opts: { onStep?: (step: ResolutionStep) => void } = {},
): Promise<ResolutionSummary> {
  const started = performance.now();
  let step = { at: performance.now(), cpu: process.cpuUsage() };
  const done = (name: string): void => {
    if (!opts.onStep) return;
    const cpu = process.cpuUsage(step.cpu);
    opts.onStep({ name, ms: performance.now() - step.at, cpuMs: (cpu.user + cpu.system) / 1000 });
    step = { at: performance.now(), cpu: process.cpuUsage() };
  };
  const run: Run = (sql, params) => conn.run(sql, params);
  await collectParties(run, done);
  await collectLinks(run, done);
  const { firstOf, kept, review } = await group(conn, run);
  done('grouping');

  // Each party's firm is named by the id of the firm's first party; the links that made each firm
  // and the open review pairs are kept by party id.
  await run(
    `CREATE OR REPLACE TEMP TABLE fr_assign AS
    SELECT p.idx, p.party_id, f.party_id AS firm_id
      FROM (SELECT unnest(range(len(l))) AS idx, unnest(l) AS first
              FROM (SELECT from_json($1, '["INTEGER"]') AS l)) a
      JOIN fr_party p ON p.idx = a.idx JOIN fr_party f ON f.idx = a.first`,
    [JSON.stringify(Array.from(firstOf))],
  );
  await run(`DELETE FROM firm_party_keys`);
  // A firm is named by the spelling most rows of the library carry.
  await run(`INSERT INTO firm_party_keys
    WITH names AS (
      SELECT a.firm_id, arg_max(p.name, p.rows) AS firm_name FROM fr_assign a JOIN fr_party p USING (idx) GROUP BY 1
    )
    SELECT k.name, k.cc, k.country, k.code, k.party_id, a.firm_id, names.firm_name
      FROM fr_key k JOIN fr_assign a USING (party_id) JOIN names USING (firm_id)`);
  await run(`DELETE FROM firm_parties`);
  await run(`INSERT INTO firm_parties
    SELECT p.party_id, a.firm_id, p.country_key, p.name, p.code, p.country_code, p.country, p.norm, p.rows
      FROM fr_party p JOIN fr_assign a USING (idx)`);
  await run(`DELETE FROM firm_evidence`);
  await run(
    `INSERT INTO firm_evidence
    SELECT x.firm_id, x.party_id, y.party_id, l.kind, l.value, l.score
      FROM (SELECT unnest(from_json($1, '["INTEGER"]')) AS eid) e JOIN fr_link l USING (eid)
      JOIN fr_assign x ON x.idx = l.a JOIN fr_assign y ON y.idx = l.b`,
    [JSON.stringify(kept)],
  );
  await run(`DELETE FROM firm_review`);
  await run(
    `INSERT INTO firm_review
    SELECT x.party_id, y.party_id, CASE l.kind WHEN 'review' THEN 'similar' ELSE l.kind END, l.value, l.score,
           from_json($2, '["VARCHAR"]')[e.r + 1]
      FROM (SELECT r[1] AS eid, r[2] AS r FROM (SELECT unnest(from_json($1, '[["INTEGER"]]')) AS r)) e
      JOIN fr_link l USING (eid) JOIN fr_assign x ON x.idx = l.a JOIN fr_assign y ON y.idx = l.b`,
    [JSON.stringify(review), JSON.stringify(REVIEW_REASONS)],
  );
  const c = (
    await readIn(
      conn,
      `SELECT count(*) AS parties, count(DISTINCT firm_id) AS firms,
              (SELECT count(*) FROM (SELECT firm_id FROM fr_assign GROUP BY 1 HAVING count(*) > 1)) AS merged
         FROM fr_assign`,
    )
  )[0];
  const summary: ResolutionSummary = {
    parties: toNumber(c?.parties),
    firms: toNumber(c?.firms),
    merged: toNumber(c?.merged),
    review: review.length,
    resolvedAt: new Date().toISOString(),
    ms: 0,
  };
  for (const t of [
    'fr_raw',
    'fr_key',
    'fr_party',
    'fr_value',
    'fr_edge',
    'fr_alike',
    'fr_link',
    'fr_assign',
  ]) {
    await run(`DROP TABLE IF EXISTS ${t}`);
  }
  done('results');
  summary.ms = Math.round(performance.now() - started);
  await run(`DELETE FROM firm_resolution`);
  await run(`INSERT INTO firm_resolution VALUES ($1, $2, $3)`, [
    fingerprint,
    summary.resolvedAt,
    JSON.stringify(summary),
  ]);
  return summary;
}

/**
 * Union-find over party indices with two kinds of "cannot join": pairs an analyst decided apart, and
 * groups whose tax ids are disjoint (each group keeps the set of its parties' tax ids).
 */
class Grouping {
  private readonly parent: Int32Array;
  private readonly first: Int32Array;
  private readonly taxIds = new Map<number, Set<string>>();
  private readonly apart_ = new Map<number, Set<number>>();

  constructor(n: number) {
    this.parent = new Int32Array(n);
    this.first = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.parent[i] = i;
      this.first[i] = i;
    }
  }

  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r] as number;
    let x = i;
    while (this.parent[x] !== r) {
      const next = this.parent[x] as number;
      this.parent[x] = r;
      x = next;
    }
    return r;
  }

  /** Whether an analyst decided a's group and b's group apart. */
  apart(a: number, b: number): boolean {
    const rb = this.find(b);
    for (const p of this.apart_.get(this.find(a)) ?? []) if (this.find(p) === rb) return true;
    return false;
  }

  /** The lowest party index in i's group (party ids are sorted, so this is the group's first id). */
  firstOf(i: number): number {
    return this.first[this.find(i)] as number;
  }

  setTaxIds(i: number, values: readonly string[]): void {
    this.taxIds.set(i, new Set(values));
  }

  forbid(a: number, b: number): void {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = this.apart_.get(x) ?? new Set<number>();
      set.add(y);
      this.apart_.set(x, set);
    }
  }

  join(
    a: number,
    b: number,
    overTaxConflict: boolean,
  ): 'joined' | 'already' | 'tax conflict' | 'decided apart' {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return 'already';
    if (this.apart(ra, rb)) return 'decided apart';
    const ta = this.taxIds.get(ra);
    const tb = this.taxIds.get(rb);
    if (!overTaxConflict && ta && tb && ta.size > 0 && tb.size > 0 && ![...ta].some((t) => tb.has(t))) {
      return 'tax conflict';
    }
    // The smaller group joins the larger; its sets move with it.
    const [big, small] = (ta?.size ?? 0) >= (tb?.size ?? 0) ? [ra, rb] : [rb, ra];
    this.parent[small] = big;
    this.first[big] = Math.min(this.first[big] as number, this.first[small] as number);
    const ts = this.taxIds.get(small);
    if (ts) {
      const tbig = this.taxIds.get(big) ?? new Set<string>();
      for (const t of ts) tbig.add(t);
      this.taxIds.set(big, tbig);
      this.taxIds.delete(small);
    }
    const as = this.apart_.get(small);
    if (as) {
      const abig = this.apart_.get(big) ?? new Set<number>();
      for (const p of as) abig.add(p);
      this.apart_.set(big, abig);
      this.apart_.delete(small);
    }
    return 'joined';
  }
}
