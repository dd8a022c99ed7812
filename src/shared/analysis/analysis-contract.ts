import { z } from 'zod';
import { defineCall } from '../define-call';

/** The analysis views' bridge calls: input schemas and result types. */

/** What a summary can be ordered and charted by. Weight is gross weight converted to kilograms. */
export const MEASURES = ['shipments', 'usdFob', 'usdCif', 'grossWeightKg'] as const;
export type Measure = (typeof MEASURES)[number];

/**
 * How firms are counted: `resolved` groups every spelling of a firm into one (firm resolution);
 * `asWritten` keeps each party the records name (by UrlCode) apart, as the service does.
 */
export const FIRM_GROUPINGS = ['resolved', 'asWritten'] as const;
export type FirmGrouping = (typeof FIRM_GROUPINGS)[number];

export const SUMMARY_KINDS = [
  'importers',
  'exporters',
  'hs',
  'months',
  'flows',
  'departurePorts',
  'arrivalPorts',
] as const;
export type SummaryKind = (typeof SUMMARY_KINDS)[number];

/**
 * One column filter in the shape the library's grid query (`getRows` filterModel) accepts, so a
 * drill-down opens the dataset grid with exactly these conditions.
 */
export type DrillCondition =
  | { filterType: 'text'; type: 'equals' | 'startsWith' | 'blank'; filter?: string }
  | { filterType: 'date'; type: 'greaterThanOrEqual' | 'lessThan'; dateFrom: string }
  | { filterType: 'number'; type: 'greaterThan' | 'lessThanOrEqual'; filter: number };
export type DrillColumnFilter =
  | DrillCondition
  | { filterType: 'date'; operator: 'AND'; conditions: DrillCondition[] }
  /** One of several values. */
  | { filterType: 'text'; operator: 'OR'; conditions: DrillCondition[] }
  /** A span of numbers (a watched query's rows that arrived in any of some snapshots). */
  | { filterType: 'number'; operator: 'AND'; conditions: DrillCondition[] }
  /** On importerFirm, exporterFirm or anyFirm: the rows of every spelling of a resolved firm. */
  | { filterType: 'firm'; firmId: string };
/** A grid filterModel: column → filter; columns are ANDed. */
export type DrillFilterModel = Record<string, DrillColumnFilter>;

export interface Drill {
  datasetId: string;
  /** What the filtered grid shows, for its header ("Importer ACME Ltd"). */
  label: string;
  filterModel: DrillFilterModel;
}

/**
 * Sums are over values that are numbers; a filler ("-", "N/A", "") or unparsable text adds nothing and
 * is counted in the matching `…Missing` field instead, so a sum is never silently short. A sum is
 * null when no shipment of the group had a usable value.
 */
export interface Measures {
  shipments: number;
  usdFob: number | null;
  usdCif: number | null;
  grossWeightKg: number | null;
  usdFobMissing: number;
  usdCifMissing: number;
  /** Weight that is not a number, or whose unit is blank or not a known mass unit. */
  grossWeightMissing: number;
}

export interface SummaryRow extends Measures {
  /** The grouping value (UrlCode, HS prefix, yyyy-MM, port text, "DE→TR"); null for "not given". */
  key: string | null;
  label: string;
  /** Secondary text: country code of a firm or port, HS level name, … */
  detail: string | null;
  /** Share of the dataset total per measure, 0..1 (0 when the total is 0 or unknown). */
  shares: Record<Measure, number>;
  /** Null when the group cannot be expressed as grid filters (e.g. an unparsable date). */
  drill: Drill | null;
  /** HS rows: 2, 4 or 6 digits; parent prefix (null for chapters). */
  level?: 2 | 4 | 6;
  parent?: string | null;
  /** Flow rows: exporter and importer country codes. */
  from?: string | null;
  to?: string | null;
  /** Firm rows counted by resolved firm: how many spellings of the firm the rows carry. */
  spellings?: number;
}

export interface SummaryResult {
  datasetId: string;
  kind: SummaryKind;
  measure: Measure;
  /** How the firm summaries counted firms (the other summaries ignore it). */
  firms: FirmGrouping;
  totals: Measures;
  rows: SummaryRow[];
  /** Groups left out by the row limit. */
  omittedGroups: number;
}

export interface FirmProfile {
  datasetId: string;
  /** The profile's firm: a resolved firm (`firmId`, its spellings in `spellings`) or one party by UrlCode. */
  firmId: string | null;
  urlCode: string;
  /** The names the rows give the firm, most rows first. */
  spellings: string[];
  name: string;
  country: string;
  countryCode: string;
  asImporter: Measures;
  asExporter: Measures;
  /** yyyy-MM-dd of the first and last shipment with a valid arrivalDate. */
  firstShipment: string | null;
  lastShipment: string | null;
  /** Counterparties: exporters it bought from (detail "exporter") and importers it sold to ("importer"). */
  partners: SummaryRow[];
  /** By HS heading (4 digits). */
  hsMix: SummaryRow[];
  /** By yyyy-MM of arrivalDate, oldest first. */
  monthly: SummaryRow[];
  drillAsImporter: Drill | null;
  drillAsExporter: Drill | null;
  /** A resolved firm's rows in either role, every spelling (absent for a party by UrlCode). */
  drillAll?: Drill;
}

export type DiffStatus = 'new' | 'lost' | 'kept';
export type FirmRole = 'importer' | 'exporter';

export interface DiffRow {
  role: FirmRole;
  /** The resolved firm, when the diff counts resolved firms. */
  firmId: string | null;
  /** The party's UrlCode when the diff counts firms as written ("" for a resolved firm). */
  urlCode: string;
  name: string;
  countryCode: string;
  status: DiffStatus;
  shipmentsBefore: number;
  shipmentsAfter: number;
  shipmentsChange: number;
  usdFobBefore: number | null;
  usdFobAfter: number | null;
  /** After minus before over known values; null when both are unknown. */
  usdFobChange: number | null;
}

export interface SnapshotDiff {
  baseId: string;
  compareId: string;
  role: FirmRole;
  firms: FirmGrouping;
  counts: Record<DiffStatus, number>;
  rows: DiffRow[];
  /** Firms left out by the row limit. */
  omitted: number;
  /**
   * Why the comparison may mislead, in the analyst's words: the two datasets answer different queries,
   * or one holds only a sample of what matched (firms outside it show as new or lost).
   */
  warnings: string[];
}

/** One HS subheading × firm × partner country with its unit value and where it stands within the HS code. */
export interface UnitValueRow {
  hs: string;
  hsName: string;
  /** The firm's UrlCode (null: none given) and the partner's country code. */
  firm: string | null;
  firmName: string;
  country: string | null;
  shipments: number;
  usdFob: number;
  kg: number;
  /** USD FOB per kg of gross weight. */
  usdPerKg: number;
  /** The HS code's shipments with a unit value and their quartiles (taken over the logarithms, shown in USD/kg). */
  hsShipments: number;
  hsQ1: number | null;
  hsMedian: number | null;
  hsQ3: number | null;
  /** Outside 1.5 × IQR (of the log unit values) within the HS code: below (possible under-invoicing) or above. */
  flag: 'low' | 'high' | null;
  /** Of the group's shipments, how many are themselves outliers within the HS code. */
  lowShipments: number;
  highShipments: number;
  drill: Drill;
}

export interface UnitValues {
  datasetId: string;
  role: FirmRole;
  rows: UnitValueRow[];
  /** Groups in all, and of them flagged. */
  groups: number;
  flagged: number;
  /** Shipments in the dataset, and those with a value above 0, a weight in a known unit and an HS code. */
  shipments: number;
  shipmentsUsed: number;
}

export interface AnalysisDataset {
  id: string;
  name: string;
  fetchedAt: string;
  storedRows: number;
}

export interface TableExport {
  fileName: string;
  /** The .xlsx file, Base64. */
  base64: string;
}

/**
 * Most groups one summary call returns. High enough that an Excel export of a summary holds every
 * importer or port of a large dataset, not just the page's top rows.
 */
export const MAX_SUMMARY_LIMIT = 20_000;

const id = z.string().min(1).max(200);
const measure = z.enum(MEASURES);

const firmGrouping = z.enum(FIRM_GROUPINGS).default('asWritten');

export const summaryInputSchema = z.strictObject({
  datasetId: id,
  kind: z.enum(SUMMARY_KINDS),
  measure: measure.default('shipments'),
  limit: z.number().int().min(1).max(MAX_SUMMARY_LIMIT).default(25),
  firms: firmGrouping,
});
export type SummaryInput = z.output<typeof summaryInputSchema>;

/** One party by UrlCode, or a resolved firm with all its spellings (its partners then resolved too). */
export const firmProfileInputSchema = z
  .strictObject({
    datasetId: id,
    urlCode: z.string().min(1).max(500).optional(),
    firmId: id.optional(),
    limit: z.number().int().min(1).max(1000).default(25),
  })
  .refine((i) => (i.urlCode === undefined) !== (i.firmId === undefined), {
    error: 'name the firm by its firm code or by its resolved firm, one of the two',
  });
export type FirmProfileInput = z.output<typeof firmProfileInputSchema>;

export const diffInputSchema = z.strictObject({
  baseId: id,
  compareId: id,
  role: z.enum(['importer', 'exporter']),
  limit: z.number().int().min(1).max(50_000).default(5000),
  firms: firmGrouping,
});
export type DiffInput = z.output<typeof diffInputSchema>;

export const unitValuesInputSchema = z.strictObject({
  datasetId: id,
  role: z.enum(['importer', 'exporter']).default('importer'),
  /** Only HS codes starting with these digits. */
  hs: z
    .string()
    .regex(/^\d{1,6}$/, { error: 'up to 6 digits' })
    .optional(),
  limit: z.number().int().min(1).max(MAX_SUMMARY_LIMIT).default(500),
});
export type UnitValuesInput = z.output<typeof unitValuesInputSchema>;

/** Fewest shipments of an HS code with a unit value for its quartiles to flag anything. */
export const MIN_SHIPMENTS_FOR_OUTLIERS = 4;

const cell = z.union([z.string().max(10_000), z.number().finite(), z.null()]);
export const tableExportInputSchema = z.strictObject({
  title: z.string().trim().min(1).max(100),
  /** The dataset the table is of: part of the file name, so one table of two datasets gives two files. */
  datasetName: z.string().trim().min(1).max(200).optional(),
  /** Written below the rows, e.g. that the file holds only the top groups. */
  note: z.string().trim().min(1).max(1000).optional(),
  columns: z
    .array(
      z.strictObject({
        header: z.string().min(1).max(200),
        /** `price`: 2 to 4 decimals, as the unit values view shows USD per kg. */
        type: z.enum(['text', 'integer', 'decimal', 'price', 'percent']),
      }),
    )
    .min(1)
    .max(50),
  rows: z.array(z.array(cell).max(50)).max(100_000),
});
export type TableExportInput = z.output<typeof tableExportInputSchema>;

export const analysisCalls = {
  'analysis.datasets': defineCall<AnalysisDataset[]>()(z.undefined()),
  'analysis.summary': defineCall<SummaryResult>()(summaryInputSchema),
  'analysis.firmProfile': defineCall<FirmProfile>()(firmProfileInputSchema),
  'analysis.diff': defineCall<SnapshotDiff>()(diffInputSchema),
  'analysis.unitValues': defineCall<UnitValues>()(unitValuesInputSchema),
  'analysis.exportXlsx': defineCall<TableExport>()(tableExportInputSchema),
};
