import { z } from 'zod';

/**
 * ag-grid's column filter models (text, number and date; simple or two conditions combined), as the
 * library's SQL engine understands them. One definition for the bridge schema and the engine.
 */
export const TEXT_FILTER_TYPES = [
  'equals',
  'notEqual',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'blank',
  'notBlank',
  'empty',
] as const;
export const SCALAR_FILTER_TYPES = [
  'equals',
  'notEqual',
  'lessThan',
  'lessThanOrEqual',
  'greaterThan',
  'greaterThanOrEqual',
  'inRange',
  'blank',
  'notBlank',
  'empty',
] as const;

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?$/;

/** Whether `yyyy-MM-dd[ hh:mm[:ss[.fff]]]` names a day of the calendar (and a time of that day). */
export function isGridDate(text: string): boolean {
  const m = DATE_TEXT.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return false;
  return (
    m[4] === undefined ||
    (Number(m[4]) <= 23 && Number(m[5]) <= 59 && (m[6] === undefined || Number(m[6]) <= 59))
  );
}

/**
 * ag-grid sends dates as `yyyy-MM-dd hh:mm:ss`; only the day is used. An impossible one (2024-13-45,
 * 2023-02-29) is refused here, at the bridge, rather than reaching SQL and failing there.
 */
const dateText = z.string().refine(isGridDate, { error: 'a real date, as yyyy-MM-dd' });

const textCondition = z.strictObject({
  filterType: z.literal('text'),
  type: z.enum(TEXT_FILTER_TYPES),
  filter: z.string().max(1000).nullish(),
});
const numberCondition = z.strictObject({
  filterType: z.literal('number'),
  type: z.enum(SCALAR_FILTER_TYPES),
  filter: z.number().finite().nullish(),
  filterTo: z.number().finite().nullish(),
});
const dateCondition = z.strictObject({
  filterType: z.literal('date'),
  type: z.enum(SCALAR_FILTER_TYPES),
  dateFrom: dateText.nullish(),
  dateTo: dateText.nullish(),
});
export const filterConditionSchema = z.discriminatedUnion('filterType', [
  textCondition,
  numberCondition,
  dateCondition,
]);
const combined = z.strictObject({
  filterType: z.enum(['text', 'number', 'date']),
  operator: z.enum(['AND', 'OR']),
  conditions: z.array(filterConditionSchema).min(1).max(10),
});
/** The rows whose party belongs to a resolved firm (on the filter-only fields importerFirm, exporterFirm, anyFirm). */
export const firmFilterSchema = z.strictObject({
  filterType: z.literal('firm'),
  firmId: z.string().min(1).max(200),
});
export const columnFilterSchema = z.union([combined, filterConditionSchema, firmFilterSchema]);

export type FilterCondition = z.output<typeof filterConditionSchema>;
export type ColumnFilter = z.output<typeof columnFilterSchema>;
export type TextFilterType = (typeof TEXT_FILTER_TYPES)[number];
export type ScalarFilterType = (typeof SCALAR_FILTER_TYPES)[number];
