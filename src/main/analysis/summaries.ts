import type {
  FirmGrouping,
  Measure,
  Measures,
  SummaryKind,
  SummaryResult,
  SummaryRow,
} from '@shared/analysis/analysis-contract';
import { resolvedFirmJoin, toNumber, type LibraryReader, type Row } from '../library';
import { monthName } from '@shared/fields';
import * as d from './drill';
import { HS_NAMES_TABLE } from './reference';
import { EMPTY_MEASURES, MEASURE_COLUMN, measuresOf, summaryRow, textOrNull } from './rows';
import { arrivalDateOfText, col, hsDigits, measureColumns, textKey } from './sql';

/** Most groups a summary returns when asked for "all" (HS tree, months). */
export const MAX_GROUPS = 20_000;

interface GroupedSpec {
  /** Shipment fields grouped as stored in the first pass (few distinct values, so the second pass is small). */
  raw: string[];
  /** Second-pass key expressions over those fields, aliased k0, k1, … */
  keys: string[];
  /** Joined to the first pass (alias p1) before the second groups: e.g. each party's resolved firm. */
  join?: string;
  /** More second-pass aggregates, e.g. `arg_max(p1."importerName", p1.n) AS name`. */
  extra?: string[];
  order: 'measure' | 'key';
  /** Text looked up per k0 for the returned groups only (max over the group): alias → field. */
  labels?: { keyField: string; fields: Record<string, string> };
}

/** Partial sums of the first pass; the second pass adds them up (a sum of no numbers stays NULL). */
const PARTIALS = `count(*) AS n, sum(fob) AS fob_s, count(fob) AS fob_n, sum(cif) AS cif_s, count(cif) AS cif_n,
  sum(kg) AS kg_s, count(kg) AS kg_n`;
const FROM_PARTIALS = `sum(n) AS shipments, sum(fob_s) AS usd_fob, sum(n) - sum(fob_n) AS fob_missing,
  sum(cif_s) AS usd_cif, sum(n) - sum(cif_n) AS cif_missing, sum(kg_s) AS kg, sum(n) - sum(kg_n) AS kg_missing`;
const TOTALS = `sum(shipments) AS shipments, sum(usd_fob) AS usd_fob, sum(fob_missing) AS fob_missing,
  sum(usd_cif) AS usd_cif, sum(cif_missing) AS cif_missing, sum(kg) AS kg, sum(kg_missing) AS kg_missing`;

/** First pass over the dataset's rows: stored values of `fields` with partial measure sums. */
function firstPass(fields: readonly string[]): string {
  const cols = fields.map(col).join(', ');
  return `SELECT ${cols}, ${PARTIALS}
            FROM (SELECT ${cols}, ${measureColumns()} FROM shipment_rows WHERE dataset_id = $1)
           GROUP BY ${cols}`;
}

/**
 * Two passes in one statement: group by the stored values (one scan, cheap keys), then map them to
 * the summary's keys and add up; the top `limit` groups, the grand total and the number of groups
 * come back together. Every value is a parameter ($1 = dataset id).
 */
async function grouped(
  db: LibraryReader,
  datasetId: string,
  spec: GroupedSpec,
  measure: Measure,
  limit: number,
): Promise<{ total: Row | undefined; groups: Row[]; groupCount: number }> {
  const keyAliases = spec.keys.map((_, i) => `k${i}`);
  const order =
    spec.order === 'measure'
      ? `${MEASURE_COLUMN[measure]} DESC NULLS LAST, ${keyAliases.map((k) => `${k} ASC NULLS LAST`).join(', ')}`
      : keyAliases.map((k) => `${k} ASC NULLS LAST`).join(', ');
  const sql = `
    WITH p1 AS (${firstPass(spec.raw)}),
    p2 AS MATERIALIZED (
      SELECT ${spec.keys.map((e, i) => `${e} AS k${i}`).join(', ')}, ${[...(spec.extra ?? []), FROM_PARTIALS].join(', ')}
        FROM p1 ${spec.join ?? ''} GROUP BY ${keyAliases.join(', ')}
    )
    SELECT * FROM (SELECT 0 AS g, row_number() OVER (ORDER BY ${order}) AS rn, * FROM p2 ORDER BY ${order} LIMIT $2)
    UNION ALL BY NAME
    SELECT 1 AS g, 0 AS rn, ${TOTALS}, count(*) AS group_count FROM p2`;
  const rows = await db.all(sql, [datasetId, limit]);
  const total = rows.find((r) => toNumber(r.g) === 1);
  const groups = rows.filter((r) => toNumber(r.g) === 0).sort((a, b) => toNumber(a.rn) - toNumber(b.rn));
  if (spec.labels) await addLabels(db, datasetId, groups, spec.labels);
  return {
    total: total && toNumber(total.group_count) > 0 ? total : undefined,
    groups,
    groupCount: toNumber(total?.group_count),
  };
}

/** Looks up display text (max over the group) for the returned keys only: far cheaper than for every group. */
async function addLabels(
  db: LibraryReader,
  datasetId: string,
  groups: Row[],
  labels: NonNullable<GroupedSpec['labels']>,
): Promise<void> {
  const keys = groups.map((g) => g.k0).filter((k): k is string => typeof k === 'string');
  if (keys.length === 0) return;
  const aliases = Object.entries(labels.fields);
  const params = [datasetId, ...keys];
  const rows = await db.all(
    `SELECT k, ${aliases.map(([alias]) => `max(${alias}) AS ${alias}`).join(', ')}
       FROM (SELECT ${col(labels.keyField)} AS k, ${aliases.map(([alias, field]) => `${col(field)} AS ${alias}`).join(', ')}
               FROM shipment_rows
              WHERE dataset_id = $1 AND ${col(labels.keyField)} IN (${keys.map((_, i) => `$${i + 2}`).join(', ')}))
      GROUP BY k`,
    params,
  );
  const byKey = new Map(rows.map((r) => [String(r.k), r]));
  for (const g of groups) {
    const found = byKey.get(String(g.k0));
    for (const [alias] of aliases) g[alias] = found?.[alias] ?? null;
  }
}

function result(
  datasetId: string,
  kind: SummaryKind,
  measure: Measure,
  totals: Measures,
  rows: SummaryRow[],
  groupCount: number,
  firms: FirmGrouping = 'asWritten',
): SummaryResult {
  return {
    datasetId,
    kind,
    measure,
    firms,
    totals,
    rows,
    omittedGroups: Math.max(0, groupCount - rows.length),
  };
}

/**
 * Top importers or exporters by resolved firm: every spelling of a firm counted as one, named by the
 * spelling most of its rows carry; a row whose party has neither name nor code is "(no firm)".
 */
async function resolvedFirms(
  db: LibraryReader,
  datasetId: string,
  role: 'importer' | 'exporter',
  measure: Measure,
  limit: number,
): Promise<SummaryResult> {
  const party = ['Name', 'CountryCode', 'Country', 'UrlCode'].map((s) => `${role}${s}`);
  const { total, groups, groupCount } = await grouped(
    db,
    datasetId,
    {
      raw: party,
      keys: ['fk.firm_id'],
      join: resolvedFirmJoin(role, 'fk', 'p1'),
      extra: [
        `arg_max(p1.${col(`${role}Name`)}, p1.n) AS name`,
        `arg_max(p1.${col(`${role}CountryCode`)}, p1.n) AS cc`,
        `count(DISTINCT fk.party_id) AS spellings`,
      ],
      order: 'measure',
    },
    measure,
    limit,
  );
  const totals = measuresOf(total);
  const noun = role === 'importer' ? 'Importer' : 'Exporter';
  const rows = groups.map((r) => {
    const key = textOrNull(r.k0);
    const label = key === null ? '(no firm)' : (textOrNull(r.name) ?? '(no name)');
    return {
      ...summaryRow(r, totals, {
        key,
        label,
        detail: textOrNull(r.cc),
        drill: key === null ? null : d.drill(datasetId, `${noun} ${label}`, d.firm(role, key)),
      }),
      spellings: toNumber(r.spellings),
    };
  });
  return result(
    datasetId,
    role === 'importer' ? 'importers' : 'exporters',
    measure,
    totals,
    rows,
    groupCount,
    'resolved',
  );
}

/** Top importers or exporters by UrlCode, with the name and country code they carry in the data. */
async function firms(
  db: LibraryReader,
  datasetId: string,
  role: 'importer' | 'exporter',
  measure: Measure,
  limit: number,
): Promise<SummaryResult> {
  const { total, groups, groupCount } = await grouped(
    db,
    datasetId,
    {
      raw: [`${role}UrlCode`],
      keys: [textKey(`${role}UrlCode`)],
      order: 'measure',
      labels: { keyField: `${role}UrlCode`, fields: { name: `${role}Name`, cc: `${role}CountryCode` } },
    },
    measure,
    limit,
  );
  const totals = measuresOf(total);
  const noun = role === 'importer' ? 'Importer' : 'Exporter';
  const rows = groups.map((r) => {
    const key = textOrNull(r.k0);
    const label = textOrNull(r.name) ?? key ?? '(no firm code)';
    return summaryRow(r, totals, {
      key,
      label,
      detail: textOrNull(r.cc),
      drill: d.drill(datasetId, `${noun} ${label}`, d.equalsOrBlank(`${role}UrlCode`, key)),
    });
  });
  return result(
    datasetId,
    role === 'importer' ? 'importers' : 'exporters',
    measure,
    totals,
    rows,
    groupCount,
  );
}

async function ports(
  db: LibraryReader,
  datasetId: string,
  side: 'departure' | 'arrival',
  measure: Measure,
  limit: number,
): Promise<SummaryResult> {
  const field = side === 'departure' ? 'portOfDeparture' : 'portOfArrival';
  const country = side === 'departure' ? 'exporterCountryCode' : 'importerCountryCode';
  const { total, groups, groupCount } = await grouped(
    db,
    datasetId,
    {
      raw: [field],
      keys: [textKey(field)],
      order: 'measure',
      labels: { keyField: field, fields: { cc: country } },
    },
    measure,
    limit,
  );
  const totals = measuresOf(total);
  const noun = side === 'departure' ? 'Departure port' : 'Arrival port';
  const rows = groups.map((r) => {
    const key = textOrNull(r.k0);
    const label = key ?? '(no port)';
    return summaryRow(r, totals, {
      key,
      label,
      detail: textOrNull(r.cc),
      drill: d.drill(datasetId, `${noun} ${label}`, d.equalsOrBlank(field, key)),
    });
  });
  return result(
    datasetId,
    side === 'departure' ? 'departurePorts' : 'arrivalPorts',
    measure,
    totals,
    rows,
    groupCount,
  );
}

async function flows(
  db: LibraryReader,
  datasetId: string,
  measure: Measure,
  limit: number,
): Promise<SummaryResult> {
  const { total, groups, groupCount } = await grouped(
    db,
    datasetId,
    {
      raw: ['exporterCountryCode', 'importerCountryCode'],
      keys: [textKey('exporterCountryCode'), textKey('importerCountryCode')],
      order: 'measure',
    },
    measure,
    limit,
  );
  const totals = measuresOf(total);
  const rows = groups.map((r) => {
    const from = textOrNull(r.k0);
    const to = textOrNull(r.k1);
    const label = `${from ?? '?'} → ${to ?? '?'}`;
    return summaryRow(r, totals, {
      key: `${from ?? ''}→${to ?? ''}`,
      label,
      detail: null,
      from,
      to,
      drill: d.drill(
        datasetId,
        `Flow ${label}`,
        d.equalsOrBlank('exporterCountryCode', from),
        d.equalsOrBlank('importerCountryCode', to),
      ),
    });
  });
  return result(datasetId, 'flows', measure, totals, rows, groupCount);
}

/** Shipments and values per calendar month of arrivalDate, oldest first; invalid dates form one undrillable row. */
async function months(db: LibraryReader, datasetId: string, measure: Measure): Promise<SummaryResult> {
  const { total, groups, groupCount } = await grouped(
    db,
    datasetId,
    { raw: ['arrivalDate'], keys: [`strftime(${arrivalDateOfText()}, '%Y-%m')`], order: 'key' },
    measure,
    MAX_GROUPS,
  );
  const totals = measuresOf(total);
  const rows = groups.map((r) => {
    const key = textOrNull(r.k0);
    return summaryRow(r, totals, {
      key,
      label: key ?? '(no valid date)',
      detail: null,
      drill: key === null ? null : d.drill(datasetId, `Arrivals in ${monthName(key)}`, d.month(key)),
    });
  });
  return result(datasetId, 'months', measure, totals, rows, groupCount);
}

/**
 * The HS tree: chapter (2 digits) → heading (4) → subheading (6) in one ROLLUP, named from the
 * nomenclature. A code too short for a level is a row with key null under its parent (not drillable:
 * the grid has no "exactly this prefix and nothing longer" filter). Ordered chapter by chapter.
 */
async function hs(db: LibraryReader, datasetId: string, measure: Measure): Promise<SummaryResult> {
  const digits = hsDigits();
  const sql = `
    WITH p1 AS (${firstPass(['hsCode'])}),
    base AS (
      SELECT CASE WHEN length(dg) >= 2 THEN left(dg, 2) END AS c2,
             CASE WHEN length(dg) >= 4 THEN left(dg, 4) END AS c4,
             CASE WHEN length(dg) >= 6 THEN left(dg, 6) END AS c6,
             n, fob_s, fob_n, cif_s, cif_n, kg_s, kg_n
        FROM (SELECT ${digits} AS dg, * FROM p1)
    ), grouped AS (
      SELECT c2, c4, c6, GROUPING(c2, c4, c6) AS g, ${FROM_PARTIALS}
        FROM base GROUP BY ROLLUP (c2, c4, c6)
    )
    SELECT grouped.*, n.name AS hs_name
      FROM grouped
      LEFT JOIN ${HS_NAMES_TABLE} n
        ON n.code = CASE g WHEN 0 THEN c6 WHEN 1 THEN c4 WHEN 3 THEN c2 END
     ORDER BY g = 7 DESC, c2 ASC NULLS LAST, g = 3 DESC, c4 ASC NULLS LAST, g = 1 DESC, c6 ASC NULLS LAST
     LIMIT $2`;
  const all = await db.all(sql, [datasetId, MAX_GROUPS + 1]);
  const totalRow = all.find((r) => toNumber(r.g) === 7);
  const totals = totalRow ? measuresOf(totalRow) : EMPTY_MEASURES;
  // Already in tree order: each chapter, then its headings, each followed by its subheadings.
  const body = all.filter((r) => toNumber(r.g) !== 7);
  const level = (r: Row): 2 | 4 | 6 => (toNumber(r.g) === 3 ? 2 : toNumber(r.g) === 1 ? 4 : 6);
  const rows = body.map((r) => {
    const lv = level(r);
    const key = textOrNull(lv === 2 ? r.c2 : lv === 4 ? r.c4 : r.c6);
    const parent = lv === 2 ? null : textOrNull(lv === 4 ? r.c2 : r.c4);
    const name = textOrNull(r.hs_name);
    const label =
      key === null ? (lv === 2 ? '(no HS code)' : `(no ${lv}-digit code)`) : name ? `${key} ${name}` : key;
    return summaryRow(r, totals, {
      key,
      label,
      detail: lv === 2 ? 'chapter' : lv === 4 ? 'heading' : 'subheading',
      level: lv,
      parent,
      drill: key === null ? null : d.drill(datasetId, `HS ${key}`, d.hsPrefix(key)),
    });
  });
  return result(datasetId, 'hs', measure, totals, rows, body.length);
}

export function summary(
  db: LibraryReader,
  datasetId: string,
  kind: SummaryKind,
  measure: Measure,
  limit: number,
  firmsBy: FirmGrouping = 'asWritten',
): Promise<SummaryResult> {
  const byFirm = firmsBy === 'resolved' ? resolvedFirms : firms;
  switch (kind) {
    case 'importers':
      return byFirm(db, datasetId, 'importer', measure, limit);
    case 'exporters':
      return byFirm(db, datasetId, 'exporter', measure, limit);
    case 'departurePorts':
      return ports(db, datasetId, 'departure', measure, limit);
    case 'arrivalPorts':
      return ports(db, datasetId, 'arrival', measure, limit);
    case 'flows':
      return flows(db, datasetId, measure, limit);
    case 'months':
      return months(db, datasetId, measure);
    case 'hs':
      return hs(db, datasetId, measure);
  }
}
