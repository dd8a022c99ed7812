import type { Drill, DrillFilterModel, FirmGrouping } from '@shared/analysis/analysis-contract';
import type { ChangeGrouping, ChangeRow, SnapshotChanges } from '@shared/watch/watch-contract';
import { LOST_COLUMN, SNAPSHOT_COLUMN, resolvedFirmJoin, toNumber, type LibraryReader } from '../library';
import * as d from './drill';
import { amount, col, grossWeightKg, hsDigits, textKey } from './sql';

const extraInt = (header: string): string =>
  `TRY_CAST(json_extract_string(s."_extra", '/${header}') AS INTEGER)`;

interface Grouping {
  key: string;
  name: string;
  detail: string;
  join: string;
  drill: (key: string) => DrillFilterModel;
}

function grouping(by: ChangeGrouping, firms: FirmGrouping): Grouping {
  switch (by) {
    case 'importers':
    case 'exporters': {
      const role = by === 'importers' ? 'importer' : 'exporter';
      if (firms === 'resolved') {
        return {
          key: 'fk.firm_id',
          name: `coalesce(fk.firm_name, ${col(`${role}Name`)})`,
          detail: col(`${role}CountryCode`),
          join: resolvedFirmJoin(role, 'fk', 's'),
          drill: (key) => d.firm(role, key),
        };
      }
      return {
        key: textKey(`${role}UrlCode`),
        name: col(`${role}Name`),
        detail: col(`${role}CountryCode`),
        join: '',
        drill: (key) => d.equalsOrBlank(`${role}UrlCode`, key),
      };
    }
    case 'hs':
      return {
        key: `nullif(substr(${hsDigits()}, 1, 6), '')`,
        name: col('hsCodeDescription'),
        detail: "''",
        join: '',
        drill: (key) => d.hsPrefix(key),
      };
    case 'importerCountries':
    case 'exporterCountries': {
      const field = by === 'importerCountries' ? 'importerCountryCode' : 'exporterCountryCode';
      return {
        key: textKey(field),
        name: col(by === 'importerCountries' ? 'importerCountry' : 'exporterCountry'),
        detail: "''",
        join: '',
        drill: (key) => d.equalsOrBlank(field, key),
      };
    }
  }
}

/**
 * The grid filter "the value of `header` is from+1 … to": the snapshot columns are numbers, filtered
 * in the grid with its number filter (greater than `from`, at most `to`).
 */
function snapshotsBetween(header: string, from: number, to: number): DrillFilterModel | null {
  if (to <= from) return null;
  return {
    [`extra:${header}`]: {
      filterType: 'number',
      operator: 'AND',
      conditions: [
        { filterType: 'number', type: 'greaterThan', filter: from },
        { filterType: 'number', type: 'lessThanOrEqual', filter: to },
      ],
    },
  };
}

const money = (v: unknown): number | null =>
  v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100;
const weight = (v: unknown): number | null =>
  v === null || v === undefined ? null : Math.round(Number(v) * 1000) / 1000;

/**
 * What changed between snapshots `from` and `to` of a watched query's dataset, grouped by firm, HS code
 * or country: a record is in snapshot n when it arrived in n or before and was not found gone by n.
 * Groups with records in `to` only are new, in `from` only lost. Value is USD FOB, volume gross weight
 * in kilograms (units converted, unknown units left out). Every figure is computed in SQL.
 */
export async function snapshotChanges(
  db: LibraryReader,
  datasetId: string,
  from: number,
  to: number,
  by: ChangeGrouping,
  opts: { firms?: FirmGrouping; limit?: number } = {},
): Promise<Omit<SnapshotChanges, 'watchId' | 'warnings' | 'fromTakenAt' | 'toTakenAt'>> {
  const firms = opts.firms ?? 'asWritten';
  const g = grouping(by, firms);
  const member = (n: string): string => `(sn <= ${n} AND (ln IS NULL OR ln > ${n}))`;
  const rows = await db.all(
    `WITH r AS (
       SELECT ${g.key} AS k, ${g.name} AS name, ${g.detail} AS detail, ${amount('usdFob')} AS fob, ${grossWeightKg()} AS kg,
              ${extraInt(SNAPSHOT_COLUMN)} AS sn, ${extraInt(LOST_COLUMN)} AS ln
         FROM shipment_rows s ${g.join} WHERE s.dataset_id = $1
     ), m AS (
       SELECT k, name, detail, fob, kg, ${member('$2')} AS in_a, ${member('$3')} AS in_b FROM r
     ), grouped AS (
       SELECT k, mode(name) AS name, max(detail) AS detail,
              count(*) FILTER (WHERE in_a) AS n_a, count(*) FILTER (WHERE in_b) AS n_b,
              count(*) FILTER (WHERE in_b AND NOT in_a) AS n_added, count(*) FILTER (WHERE in_a AND NOT in_b) AS n_lost,
              sum(fob) FILTER (WHERE in_a) AS fob_a, sum(fob) FILTER (WHERE in_b) AS fob_b,
              sum(kg) FILTER (WHERE in_a) AS kg_a, sum(kg) FILTER (WHERE in_b) AS kg_b
         FROM m WHERE (in_a OR in_b) AND k IS NOT NULL GROUP BY k
     )
     SELECT *, CASE WHEN n_a = 0 THEN 'new' WHEN n_b = 0 THEN 'lost' ELSE 'kept' END AS status,
            (SELECT count(*) FILTER (WHERE n_a = 0) FROM grouped) AS c_new,
            (SELECT count(*) FILTER (WHERE n_b = 0) FROM grouped) AS c_lost, (SELECT count(*) FROM grouped) AS c_all
       FROM grouped
      ORDER BY (n_added + n_lost) = 0, abs(coalesce(fob_b, 0) - coalesce(fob_a, 0)) DESC, abs(n_b - n_a) DESC, k
      LIMIT $4`,
    [datasetId, from, to, opts.limit ?? 500],
  );
  const totals = await db.one(
    `WITH r AS (
       SELECT ${amount('usdFob')} AS fob, ${grossWeightKg()} AS kg, ${extraInt(SNAPSHOT_COLUMN)} AS sn, ${extraInt(LOST_COLUMN)} AS ln
         FROM shipment_rows s WHERE s.dataset_id = $1
     ), m AS (SELECT fob, kg, ${member('$2')} AS in_a, ${member('$3')} AS in_b FROM r)
     SELECT count(*) FILTER (WHERE in_a) AS n_a, count(*) FILTER (WHERE in_b) AS n_b,
            count(*) FILTER (WHERE in_b AND NOT in_a) AS n_added, count(*) FILTER (WHERE in_a AND NOT in_b) AS n_lost,
            sum(fob) FILTER (WHERE in_a) AS fob_a, sum(fob) FILTER (WHERE in_b) AS fob_b,
            sum(kg) FILTER (WHERE in_a) AS kg_a, sum(kg) FILTER (WHERE in_b) AS kg_b
       FROM m`,
    [datasetId, from, to],
  );
  const addedRows = snapshotsBetween(SNAPSHOT_COLUMN, from, to);
  const lostRows = snapshotsBetween(LOST_COLUMN, from, to);
  const drillOf = (label: string, base: DrillFilterModel, narrow: DrillFilterModel | null): Drill | null =>
    narrow ? d.drill(datasetId, label, base, narrow) : null;
  const out = rows.map((r): ChangeRow => {
    const key = String(r.k);
    const name = r.name === null || r.name === undefined ? key : String(r.name);
    const base = g.drill(key);
    const nAdded = toNumber(r.n_added);
    const nLost = toNumber(r.n_lost);
    return {
      key,
      name,
      detail: r.detail === null || r.detail === undefined ? '' : String(r.detail),
      status: r.status === 'new' ? 'new' : r.status === 'lost' ? 'lost' : 'kept',
      shipmentsBefore: toNumber(r.n_a),
      shipmentsAfter: toNumber(r.n_b),
      added: nAdded,
      lost: nLost,
      usdFobBefore: money(r.fob_a),
      usdFobAfter: money(r.fob_b),
      kgBefore: weight(r.kg_a),
      kgAfter: weight(r.kg_b),
      drillAdded: nAdded > 0 ? drillOf(`${name}: arrived after snapshot ${from}`, base, addedRows) : null,
      drillLost: nLost > 0 ? drillOf(`${name}: gone after snapshot ${from}`, base, lostRows) : null,
      drillAll: d.drill(datasetId, name, base),
    };
  });
  const first = rows[0];
  return {
    datasetId,
    from,
    to,
    by,
    firms,
    counts: {
      new: toNumber(first?.c_new),
      lost: toNumber(first?.c_lost),
      groups: toNumber(first?.c_all),
    },
    totals: {
      shipmentsBefore: toNumber(totals?.n_a),
      shipmentsAfter: toNumber(totals?.n_b),
      added: toNumber(totals?.n_added),
      lost: toNumber(totals?.n_lost),
      usdFobBefore: money(totals?.fob_a),
      usdFobAfter: money(totals?.fob_b),
      kgBefore: weight(totals?.kg_a),
      kgAfter: weight(totals?.kg_b),
    },
    rows: out,
    drillAdded: addedRows ? d.drill(datasetId, `Arrived after snapshot ${from}`, addedRows) : null,
    drillLost: lostRows ? d.drill(datasetId, `Gone after snapshot ${from}`, lostRows) : null,
  };
}
