import {
  MIN_SHIPMENTS_FOR_OUTLIERS,
  type FirmRole,
  type UnitValueRow,
  type UnitValues,
} from '@shared/analysis/analysis-contract';
import { toNumber, type LibraryReader } from '../library';
import * as d from './drill';
import { amount, col, grossWeightKg, hsDigits, textKey } from './sql';

export { MIN_SHIPMENTS_FOR_OUTLIERS };
/** How far outside the quartiles (in interquartile ranges) a unit value is an outlier. */
export const IQR_FENCE = 1.5;

const num = (v: unknown, digits: number): number | null =>
  v === null || v === undefined || !Number.isFinite(Number(v))
    ? null
    : Math.round(Number(v) * 10 ** digits) / 10 ** digits;

/**
 * Unit values (USD FOB per kilogram of gross weight, every weight converted to kg; a shipment without
 * a value above 0 or a usable weight is left out and counted) by HS subheading, firm of `role` and the
 * other party's country. An HS code's quartiles are over the logarithms of its shipments' unit values:
 * prices spread over orders of magnitude, and on the plain scale the lower fence (Q1 − 1.5 × IQR) falls
 * below zero, so nothing could ever be flagged low. A group whose unit value lies more than 1.5 × IQR
 * (of the logs) below the first or above the third quartile is flagged low or high — the under- and
 * over-invoicing candidates — and so is each such shipment (counted per group).
 */
export async function unitValues(
  db: LibraryReader,
  datasetId: string,
  role: FirmRole,
  opts: { limit?: number; hs?: string } = {},
): Promise<UnitValues> {
  const other = role === 'importer' ? 'exporter' : 'importer';
  const hsFilter = opts.hs ? `AND starts_with(hs, $3)` : '';
  const params = [datasetId, opts.limit ?? 500, ...(opts.hs ? [opts.hs] : [])];
  const base = `
    WITH r AS (
      SELECT nullif(substr(${hsDigits()}, 1, 6), '') AS hs, ${col('hsCodeDescription')} AS hs_name,
             ${textKey(`${role}UrlCode`)} AS firm, ${col(`${role}Name`)} AS firm_name,
             ${textKey(`${other}CountryCode`)} AS country,
             ${amount('usdFob')} AS fob, ${grossWeightKg()} AS kg
        FROM shipment_rows WHERE dataset_id = $1
    ), v AS (SELECT *, fob / kg AS uv FROM r WHERE fob > 0 AND kg > 0 AND hs IS NOT NULL ${hsFilter}),
    q AS (
      SELECT hs, count(*) AS hs_n, quantile_cont(ln(uv), 0.25) AS l1, quantile_cont(ln(uv), 0.5) AS lm,
             quantile_cont(ln(uv), 0.75) AS l3
        FROM v GROUP BY hs
    ), f AS (
      SELECT hs, hs_n, exp(l1) AS q1, exp(lm) AS med, exp(l3) AS q3,
             exp(l1 - ${IQR_FENCE} * (l3 - l1)) AS lo, exp(l3 + ${IQR_FENCE} * (l3 - l1)) AS hi FROM q
    )`;
  const rows = await db.all(
    `${base}, g AS (
       SELECT v.hs, v.firm, v.country, mode(v.hs_name) AS hs_name, mode(v.firm_name) AS firm_name,
              count(*) AS n, sum(v.fob) AS fob, sum(v.kg) AS kg,
              count(*) FILTER (WHERE f.hs_n >= ${MIN_SHIPMENTS_FOR_OUTLIERS} AND v.uv < f.lo) AS low_n,
              count(*) FILTER (WHERE f.hs_n >= ${MIN_SHIPMENTS_FOR_OUTLIERS} AND v.uv > f.hi) AS high_n
         FROM v JOIN f USING (hs) GROUP BY v.hs, v.firm, v.country
     ), rated AS (
       SELECT g.*, g.fob / g.kg AS uv, f.q1, f.med, f.q3, f.hs_n,
              CASE WHEN f.hs_n < ${MIN_SHIPMENTS_FOR_OUTLIERS} THEN NULL
                   WHEN g.fob / g.kg < f.lo THEN 'low' WHEN g.fob / g.kg > f.hi THEN 'high' END AS flag
         FROM g JOIN f USING (hs)
     )
     SELECT *, (SELECT count(*) FROM rated) AS groups,
            (SELECT count(*) FILTER (WHERE flag IS NOT NULL) FROM rated) AS flagged
       FROM rated
      ORDER BY flag IS NULL, abs(ln(uv / nullif(med, 0))) DESC NULLS LAST, hs, firm, country
      LIMIT $2`,
    params,
  );
  const counts = await db.one(
    `SELECT count(*) AS n, count(*) FILTER (WHERE fob > 0 AND kg > 0 AND hs IS NOT NULL) AS used
       FROM (SELECT nullif(substr(${hsDigits()}, 1, 6), '') AS hs, ${amount('usdFob')} AS fob, ${grossWeightKg()} AS kg
               FROM shipment_rows WHERE dataset_id = $1) t`,
    [datasetId],
  );
  const first = rows[0];
  const out = rows.map((r): UnitValueRow => {
    const hs = String(r.hs);
    const firm = r.firm === null || r.firm === undefined ? null : String(r.firm);
    const country = r.country === null || r.country === undefined ? null : String(r.country);
    const name = r.firm_name === null || r.firm_name === undefined ? '' : String(r.firm_name);
    return {
      hs,
      hsName: r.hs_name === null || r.hs_name === undefined ? '' : String(r.hs_name),
      firm,
      firmName: name,
      country,
      shipments: toNumber(r.n),
      usdFob: num(r.fob, 2) ?? 0,
      kg: num(r.kg, 3) ?? 0,
      usdPerKg: num(r.uv, 4) ?? 0,
      hsShipments: toNumber(r.hs_n),
      hsQ1: num(r.q1, 4),
      hsMedian: num(r.med, 4),
      hsQ3: num(r.q3, 4),
      flag: r.flag === 'low' ? 'low' : r.flag === 'high' ? 'high' : null,
      lowShipments: toNumber(r.low_n),
      highShipments: toNumber(r.high_n),
      drill: d.drill(
        datasetId,
        `HS ${hs} · ${name || 'no firm'} · ${country ?? 'no country'}`,
        d.hsPrefix(hs),
        d.equalsOrBlank(`${role}UrlCode`, firm),
        d.equalsOrBlank(`${other}CountryCode`, country),
      ),
    };
  });
  return {
    datasetId,
    role,
    rows: out,
    groups: toNumber(first?.groups),
    flagged: toNumber(first?.flagged),
    shipments: toNumber(counts?.n),
    shipmentsUsed: toNumber(counts?.used),
  };
}
