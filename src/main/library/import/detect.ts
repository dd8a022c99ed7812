import { FIRM_FIELDS, SHIPMENT_FIELDS } from '@shared/spec/records';
import type { DatasetKind } from '../fields';

const shipmentFields: ReadonlySet<string> = new Set(SHIPMENT_FIELDS);
const firmFields: ReadonlySet<string> = new Set(FIRM_FIELDS);

/**
 * Which kind of record a set of field names describes, or null for a foreign file. A kind needs a
 * clear majority of its own field names, so a CSV that shares a `name` or `country` column with the
 * firm record is not mistaken for one.
 */
export function detectKind(fields: readonly string[]): DatasetKind | null {
  const names = fields.map((f) => f.trim());
  const s = names.filter((f) => shipmentFields.has(f)).length;
  const f = names.filter((x) => firmFields.has(x)).length;
  if (s >= 5 && s >= names.length / 2 && s > f) return 'shipments';
  if (f >= 3 && f >= names.length / 2 && f > s) return 'firms';
  return null;
}
