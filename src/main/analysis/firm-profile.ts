import type { FirmProfile, FirmRole, SummaryRow } from '@shared/analysis/analysis-contract';
import { AppError } from '@shared/ipc/errors';
import type { Db } from '../library';
import * as d from './drill';
import { HS_NAMES_TABLE } from './reference';
import { measuresOf, summaryRow, textOrNull } from './rows';
import { MEASURE_AGGREGATES, arrivalDate, col, hsDigits, measureColumns, textKey } from './sql';

const other = (role: FirmRole): FirmRole => (role === 'importer' ? 'exporter' : 'importer');

/**
 * Everything about one firm (by UrlCode) within a dataset. A shipment counts once even when the firm
 * is both its importer and exporter; partners are listed per role.
 */
export async function firmProfile(
  db: Db,
  datasetId: string,
  urlCode: string,
  limit: number,
): Promise<FirmProfile> {
  const imp = col('importerUrlCode');
  const exp = col('exporterUrlCode');
  const mine = `dataset_id = $1 AND (${imp} = $2 OR ${exp} = $2)`;

  const roles = await db.all(
    `SELECT role, max(name) AS name, max(country) AS country, max(cc) AS cc, ${MEASURE_AGGREGATES}
       FROM (
         SELECT 'importer' AS role, ${col('importerName')} AS name, ${col('importerCountry')} AS country,
                ${col('importerCountryCode')} AS cc, ${measureColumns()}
           FROM shipment_rows WHERE dataset_id = $1 AND ${imp} = $2
         UNION ALL
         SELECT 'exporter', ${col('exporterName')}, ${col('exporterCountry')}, ${col('exporterCountryCode')}, ${measureColumns()}
           FROM shipment_rows WHERE dataset_id = $1 AND ${exp} = $2
       ) GROUP BY role`,
    [datasetId, urlCode],
  );
  const asRole = (role: FirmRole) => roles.find((r) => r.role === role);
  const impRow = asRole('importer');
  const expRow = asRole('exporter');
  if (!impRow && !expRow) throw new AppError('NotFound', 'That firm has no shipments in this dataset.');
  const ident = impRow ?? expRow;

  const span = await db.one(
    `SELECT strftime(min(dt), '%Y-%m-%d') AS first, strftime(max(dt), '%Y-%m-%d') AS last
       FROM (SELECT ${arrivalDate()} AS dt FROM shipment_rows WHERE ${mine})`,
    [datasetId, urlCode],
  );

  const asImporter = measuresOf(impRow);
  const asExporter = measuresOf(expRow);
  // The firm's own totals: each shipment once, even when the firm is both importer and exporter.
  const both = measuresOf(
    await db.one(
      `SELECT ${MEASURE_AGGREGATES} FROM (SELECT ${measureColumns()} FROM shipment_rows WHERE ${mine})`,
      [datasetId, urlCode],
    ),
  );
  const name = textOrNull(ident?.name) ?? urlCode;
  const roleDrill = (role: FirmRole, present: boolean) =>
    present ? d.drill(datasetId, `${name} as ${role}`, d.equalsOrBlank(`${role}UrlCode`, urlCode)) : null;
  // Rows of the whole firm can be drilled only when it has one role: the grid ANDs its column filters.
  const onlyRole: FirmRole | null = impRow && !expRow ? 'importer' : expRow && !impRow ? 'exporter' : null;
  const firmFilter = onlyRole ? d.equalsOrBlank(`${onlyRole}UrlCode`, urlCode) : null;

  const partnerRows = await db.all(
    `SELECT partner_role, k0, max(name_in) AS name, max(cc_in) AS cc, ${MEASURE_AGGREGATES}
       FROM (
         SELECT 'exporter' AS partner_role, ${textKey('exporterUrlCode')} AS k0, ${col('exporterName')} AS name_in,
                ${col('exporterCountryCode')} AS cc_in, ${measureColumns()}
           FROM shipment_rows WHERE dataset_id = $1 AND ${imp} = $2
         UNION ALL
         SELECT 'importer', ${textKey('importerUrlCode')}, ${col('importerName')}, ${col('importerCountryCode')}, ${measureColumns()}
           FROM shipment_rows WHERE dataset_id = $1 AND ${exp} = $2
       ) GROUP BY partner_role, k0
       ORDER BY shipments DESC, partner_role, k0 NULLS LAST
       LIMIT $3`,
    [datasetId, urlCode, limit],
  );
  const partners = partnerRows.map((r): SummaryRow => {
    const partnerRole: FirmRole = r.partner_role === 'importer' ? 'importer' : 'exporter';
    const key = textOrNull(r.k0);
    const label = textOrNull(r.name) ?? key ?? '(no firm code)';
    return summaryRow(r, both, {
      key,
      label,
      detail: partnerRole,
      drill: d.drill(
        datasetId,
        `${name} with ${label}`,
        d.equalsOrBlank(`${other(partnerRole)}UrlCode`, urlCode),
        d.equalsOrBlank(`${partnerRole}UrlCode`, key),
      ),
    });
  });

  const hsRows = await db.all(
    `SELECT k0, max(n.name) AS hs_name, ${MEASURE_AGGREGATES}
       FROM (SELECT CASE WHEN length(dg) >= 4 THEN left(dg, 4) END AS k0, fob, cif, kg
               FROM (SELECT ${hsDigits()} AS dg, ${measureColumns()} FROM shipment_rows WHERE ${mine}))
       LEFT JOIN ${HS_NAMES_TABLE} n ON n.code = k0
      GROUP BY k0 ORDER BY shipments DESC, k0 NULLS LAST LIMIT $3`,
    [datasetId, urlCode, limit],
  );
  const hsMix = hsRows.map((r) => {
    const key = textOrNull(r.k0);
    const hsName = textOrNull(r.hs_name);
    return summaryRow(r, both, {
      key,
      label: key === null ? '(no 4-digit code)' : hsName ? `${key} ${hsName}` : key,
      detail: 'heading',
      level: 4,
      parent: key === null ? null : key.slice(0, 2),
      drill:
        key !== null && firmFilter
          ? d.drill(datasetId, `${name}, HS ${key}`, firmFilter, d.hsPrefix(key))
          : null,
    });
  });

  const monthRows = await db.all(
    `SELECT k0, ${MEASURE_AGGREGATES}
       FROM (SELECT strftime(${arrivalDate()}, '%Y-%m') AS k0, ${measureColumns()} FROM shipment_rows WHERE ${mine})
      GROUP BY k0 ORDER BY k0 NULLS LAST`,
    [datasetId, urlCode],
  );
  const monthly = monthRows.map((r) => {
    const key = textOrNull(r.k0);
    return summaryRow(r, both, {
      key,
      label: key ?? '(no valid date)',
      detail: null,
      drill:
        key !== null && firmFilter ? d.drill(datasetId, `${name}, ${key}`, firmFilter, d.month(key)) : null,
    });
  });

  return {
    datasetId,
    urlCode,
    name,
    country: textOrNull(ident?.country) ?? '',
    countryCode: textOrNull(ident?.cc) ?? '',
    asImporter,
    asExporter,
    firstShipment: textOrNull(span?.first),
    lastShipment: textOrNull(span?.last),
    partners,
    hsMix,
    monthly,
    drillAsImporter: roleDrill('importer', impRow !== undefined),
    drillAsExporter: roleDrill('exporter', expRow !== undefined),
  };
}
