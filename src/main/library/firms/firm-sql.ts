/**
 * SQL over the resolution's tables for the library's other readers (the grid's firm filters, the
 * analysis by resolved firm): how a row's party of one role finds its firm. Names come from fixed
 * lists only; values are always parameters.
 */
import type { FIRM_FILTER_FIELD_NAMES } from '@shared/library/library-contract';

export type PartyRole = 'importer' | 'exporter';

/** Filter-only grid fields: the rows whose importer's, exporter's or either party's firm is the one given. */
export const FIRM_FILTER_FIELDS: Readonly<
  Record<(typeof FIRM_FILTER_FIELD_NAMES)[number], readonly PartyRole[]>
> = {
  importerFirm: ['importer'],
  exporterFirm: ['exporter'],
  anyFirm: ['importer', 'exporter'],
};

/**
 * The condition that `keys` (an alias of firm_party_keys) is the party of `role` in the row: the four
 * party fields as written (absent ones as ''). `row` prefixes the row's columns ("s." or "").
 */
export function partyKeyMatch(role: PartyRole, keys: string, row = ''): string {
  const f = (suffix: string) => `coalesce(${row}"${role}${suffix}", '')`;
  return `${keys}.name = ${f('Name')} AND ${keys}.country_code = ${f('CountryCode')} AND ${keys}.country = ${f('Country')} AND ${keys}.url_code = ${f('UrlCode')}`;
}

/** The rows whose party of one of `roles` belongs to the firm in parameter `firmParam`. */
export function firmFilterSql(roles: readonly PartyRole[], firmParam: string): string {
  const one = (role: PartyRole) =>
    `EXISTS (SELECT 1 FROM firm_party_keys fk WHERE fk.firm_id = ${firmParam} AND ${partyKeyMatch(role, 'fk')})`;
  return `(${roles.map(one).join(' OR ')})`;
}

/** The name of the firm of a row's party of `role` (NULL: no party); `row` prefixes the row's columns. */
export function firmNameSql(role: PartyRole, row: string): string {
  return `(SELECT any_value(fk.firm_name) FROM firm_party_keys fk WHERE ${partyKeyMatch(role, 'fk', row)})`;
}

/** `LEFT JOIN` giving each row of `row` its party's firm of `role` as `<alias>.firm_id` (NULL: no party). */
export function resolvedFirmJoin(role: PartyRole, alias: string, row: string): string {
  return `LEFT JOIN firm_party_keys ${alias} ON ${partyKeyMatch(role, alias, `${row}.`)}`;
}
