import type { FirmProfile, FirmRole, SummaryRow } from '@shared/analysis/analysis-contract';
import { AppError } from '@shared/ipc/errors';
import { firmFilterSql, resolvedFirmJoin, type LibraryReader } from '../library';
import { monthName } from '@shared/fields';
import * as d from './drill';
import { HS_NAMES_TABLE } from './reference';
import { measuresOf, summaryRow, textOrNull } from './rows';
import { MEASURE_AGGREGATES, arrivalDate, col, hsDigits, measureColumns, textKey } from './sql';

const other = (role: FirmRole): FirmRole => (role === 'importer' ? 'exporter' : 'importer');

/** The profile's firm: one party by UrlCode, or a resolved firm with every spelling it has. */
export type ProfileFirm = { urlCode: string } | { firmId: string };

/**
 * Everything about one firm within a dataset: one party (by UrlCode) or a resolved firm (every spelling;
 * its partners then resolved firms too). A shipment counts once even when the firm is both its importer
 * and exporter; partners are listed per role.
 */
export async function firmProfile(
  db: LibraryReader,
  datasetId: string,
  who: ProfileFirm,
  limit: number,
): Promise<FirmProfile> {
  const resolved = 'firmId' in who;
  const ref = resolved ? who.firmId : who.urlCode;
  const as = (role: FirmRole): string =>
    resolved ? firmFilterSql([role], '$2') : `${col(`${role}UrlCode`)} = $2`;
  const imp = as('importer');
  const exp = as('exporter');
  const mine = `dataset_id = $1 AND (${imp} OR ${exp})`;

  const roles = await db.all(
    `SELECT role, max(name) AS name, max(country) AS country, max(cc) AS cc, ${MEASURE_AGGREGATES}
       FROM (
         SELECT 'importer' AS role, ${col('importerName')} AS name, ${col('importerCountry')} AS country,
                ${col('importerCountryCode')} AS cc, ${measureColumns()}
           FROM shipment_rows WHERE dataset_id = $1 AND ${imp}
         UNION ALL
         SELECT 'exporter', ${col('exporterName')}, ${col('exporterCountry')}, ${col('exporterCountryCode')}, ${measureColumns()}
           FROM shipment_rows WHERE dataset_id = $1 AND ${exp}
       ) GROUP BY role`,
    [datasetId, ref],
  );
  const asRole = (role: FirmRole) => roles.find((r) => r.role === role);
  const impRow = asRole('importer');
  const expRow = asRole('exporter');
  if (!impRow && !expRow) throw new AppError('NotFound', 'That firm has no shipments in this dataset.');
  const ident = impRow ?? expRow;

  // The names the rows give the firm, most rows first.
  const names = await db.all(
    `SELECT name, count(*) AS n FROM (
       SELECT ${col('importerName')} AS name FROM shipment_rows WHERE dataset_id = $1 AND ${imp}
       UNION ALL SELECT ${col('exporterName')} FROM shipment_rows WHERE dataset_id = $1 AND ${exp}
     ) WHERE trim(coalesce(name, '')) <> '' GROUP BY name ORDER BY n DESC, name LIMIT 1000`,
    [datasetId, ref],
  );
  const spellings = names.map((r) => String(r.name));

  const span = await db.one(
    `SELECT strftime(min(dt), '%Y-%m-%d') AS first, strftime(max(dt), '%Y-%m-%d') AS last
       FROM (SELECT ${arrivalDate()} AS dt FROM shipment_rows WHERE ${mine})`,
    [datasetId, ref],
  );

  const asImporter = measuresOf(impRow);
  const asExporter = measuresOf(expRow);
  // The firm's own totals: each shipment once, even when the firm is both importer and exporter.
  const both = measuresOf(
    await db.one(
      `SELECT ${MEASURE_AGGREGATES} FROM (SELECT ${measureColumns()} FROM shipment_rows WHERE ${mine})`,
      [datasetId, ref],
    ),
  );
  const name = (resolved ? spellings[0] : undefined) ?? textOrNull(ident?.name) ?? ref;
  const roleFilter = (role: FirmRole) =>
    resolved ? d.firm(role, who.firmId) : d.equalsOrBlank(`${role}UrlCode`, who.urlCode);
  const roleDrill = (role: FirmRole, present: boolean) =>
    present ? d.drill(datasetId, `${name} as ${role}`, roleFilter(role)) : null;
  // The whole firm's rows: a resolved firm in either role; a party only when it has one role (the grid
  // ANDs its column filters).
  const onlyRole: FirmRole | null = impRow && !expRow ? 'importer' : expRow && !impRow ? 'exporter' : null;
  const firmFilter = resolved ? d.firm('any', who.firmId) : onlyRole ? roleFilter(onlyRole) : null;

  // Partners: the other party of each of the firm's shipments, by UrlCode or by resolved firm.
  const partnerSide = (partner: FirmRole) => {
    const mineAs = as(other(partner));
    return resolved
      ? `SELECT '${partner}' AS partner_role, pk.firm_id AS k0, s.${col(`${partner}Name`)} AS name_in,
                s.${col(`${partner}CountryCode`)} AS cc_in, ${measureColumns()}
           FROM shipment_rows s ${resolvedFirmJoin(partner, 'pk', 's')} WHERE s.dataset_id = $1 AND ${mineAs}`
      : `SELECT '${partner}' AS partner_role, ${textKey(`${partner}UrlCode`)} AS k0, ${col(`${partner}Name`)} AS name_in,
                ${col(`${partner}CountryCode`)} AS cc_in, ${measureColumns()}
           FROM shipment_rows WHERE dataset_id = $1 AND ${mineAs}`;
  };
  const partnerRows = await db.all(
    `SELECT partner_role, k0, ${resolved ? 'mode(name_in)' : 'max(name_in)'} AS name, max(cc_in) AS cc, ${MEASURE_AGGREGATES}
       FROM (${partnerSide('exporter')} UNION ALL ${partnerSide('importer')})
      GROUP BY partner_role, k0
      ORDER BY shipments DESC, partner_role, k0 NULLS LAST
      LIMIT $3`,
    [datasetId, ref, limit],
  );
  const partners = partnerRows.map((r): SummaryRow => {
    const partnerRole: FirmRole = r.partner_role === 'importer' ? 'importer' : 'exporter';
    const key = textOrNull(r.k0);
    const label = textOrNull(r.name) ?? key ?? (resolved ? '(no firm)' : '(no firm code)');
    const withPartner = resolved
      ? key === null
        ? null
        : d.drill(
            datasetId,
            `${name} with ${label}`,
            d.firm(other(partnerRole), who.firmId),
            d.firm(partnerRole, key),
          )
      : d.drill(
          datasetId,
          `${name} with ${label}`,
          d.equalsOrBlank(`${other(partnerRole)}UrlCode`, who.urlCode),
          d.equalsOrBlank(`${partnerRole}UrlCode`, key),
        );
    return summaryRow(r, both, { key, label, detail: partnerRole, drill: withPartner });
  });

  const hsRows = await db.all(
    `SELECT k0, max(n.name) AS hs_name, ${MEASURE_AGGREGATES}
       FROM (SELECT CASE WHEN length(dg) >= 4 THEN left(dg, 4) END AS k0, fob, cif, kg
               FROM (SELECT ${hsDigits()} AS dg, ${measureColumns()} FROM shipment_rows WHERE ${mine}))
       LEFT JOIN ${HS_NAMES_TABLE} n ON n.code = k0
      GROUP BY k0 ORDER BY shipments DESC, k0 NULLS LAST LIMIT $3`,
    [datasetId, ref, limit],
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
    [datasetId, ref],
  );
  const monthly = monthRows.map((r) => {
    const key = textOrNull(r.k0);
    return summaryRow(r, both, {
      key,
      label: key ?? '(no valid date)',
      detail: null,
      drill:
        key !== null && firmFilter
          ? d.drill(datasetId, `${name}, ${monthName(key)}`, firmFilter, d.month(key))
          : null,
    });
  });

  return {
    datasetId,
    firmId: resolved ? who.firmId : null,
    urlCode: resolved ? '' : who.urlCode,
    spellings,
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
    ...(resolved ? { drillAll: d.drill(datasetId, name, d.firm('any', who.firmId)) } : {}),
  };
}
