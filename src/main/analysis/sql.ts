import { findColumn, textTypedExpression, typedExpression, type ColumnDef } from '../library';

/** A shipment column by name; only names from the library's field list ever reach SQL. */
export function shipmentColumn(field: string): ColumnDef {
  const col = findColumn('shipments', field);
  if (!col) throw new Error(`unknown shipment field ${field}`);
  return col;
}

/** `"field"`, checked against the field list. */
export function col(field: string): string {
  return `"${shipmentColumn(field).field}"`;
}

/**
 * A decimal-text column as DOUBLE, through the library's own cast. TRY_CAST turns fillers into NULL,
 * but it parses "nan" and "inf" too; those are not amounts either, so they become NULL as well.
 */
export function amount(field: string): string {
  const e = typedExpression(shipmentColumn(field));
  return `(CASE WHEN isfinite(${e}) THEN ${e} END)`;
}

/** arrivalDate as DATE (NULL when it is not a valid yyyy-MM-dd): the library's typed column. */
export function arrivalDate(): string {
  return typedExpression(shipmentColumn('arrivalDate'));
}

/**
 * arrivalDate as DATE read from its text under the same rule, for a query over the text column
 * itself (a first pass that grouped the stored texts, where the typed column is not at hand).
 */
export function arrivalDateOfText(): string {
  return textTypedExpression(shipmentColumn('arrivalDate'));
}

/**
 * Kilograms per unit of `grossWeightUnit`. A blank or unknown unit gives NULL, so the weight counts as
 * missing rather than being guessed. "TON"/"TONS" are left out on purpose: short, long and metric
 * tons differ by up to 12%, and the spec does not say which one the service means.
 */
export const KG_PER_UNIT: Readonly<Record<string, number>> = {
  KG: 1,
  KGS: 1,
  KGM: 1,
  KILO: 1,
  KILOS: 1,
  KILOGRAM: 1,
  KILOGRAMS: 1,
  G: 0.001,
  GR: 0.001,
  GRM: 0.001,
  GRAM: 0.001,
  GRAMS: 0.001,
  T: 1000,
  MT: 1000,
  TNE: 1000,
  TONNE: 1000,
  TONNES: 1000,
  LB: 0.45359237,
  LBS: 0.45359237,
};

/** Gross weight in kg, or NULL when the number or the unit is not usable. */
export function grossWeightKg(): string {
  const cases = Object.entries(KG_PER_UNIT)
    .map(([unit, factor]) => `WHEN '${unit}' THEN ${factor}`)
    .join(' ');
  return `(${amount('grossWeight')} * CASE upper(trim(${col('grossWeightUnit')})) ${cases} END)`;
}

/** A text column as a grouping key: blank (stored as NULL, or whitespace) is NULL, anything else as stored. */
export function textKey(field: string): string {
  const c = col(field);
  return `(CASE WHEN trim(coalesce(${c}, '')) = '' THEN NULL ELSE ${c} END)`;
}

/** The digits of hsCode (national codes sometimes carry dots or spaces). */
export function hsDigits(): string {
  return `regexp_replace(coalesce(${col('hsCode')}, ''), '[^0-9]', '', 'g')`;
}

/** Aggregates every summary row carries; `fob`, `cif`, `kg` are columns of the inner select. */
export const MEASURE_AGGREGATES = `count(*) AS shipments,
  sum(fob) AS usd_fob, count(*) - count(fob) AS fob_missing,
  sum(cif) AS usd_cif, count(*) - count(cif) AS cif_missing,
  sum(kg) AS kg, count(*) - count(kg) AS kg_missing`;

/** The inner select's measure columns. */
export function measureColumns(): string {
  return `${amount('usdFob')} AS fob, ${amount('usdCif')} AS cif, ${grossWeightKg()} AS kg`;
}
