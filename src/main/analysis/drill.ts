import type { Drill, DrillColumnFilter, DrillFilterModel } from '@shared/analysis/analysis-contract';
import { shipmentColumn } from './sql';

/**
 * Builds grid filterModels for drill-downs. The grid's text "equals" compares case-insensitively and
 * its "blank" matches NULL or whitespace, which is exactly how the summaries group (blank → key null).
 */
export function equalsOrBlank(field: string, value: string | null): DrillFilterModel {
  shipmentColumn(field);
  const f: DrillColumnFilter =
    value === null
      ? { filterType: 'text', type: 'blank' }
      : { filterType: 'text', type: 'equals', filter: value };
  return { [field]: f };
}

/** hsCode starting with the digits; exact when codes are stored as plain digits (as the spec's filter requires). */
export function hsPrefix(prefix: string): DrillFilterModel {
  return { hsCode: { filterType: 'text', type: 'startsWith', filter: prefix } };
}

/** arrivalDate within the calendar month `yyyy-MM` (first day inclusive, next month's first day exclusive). */
export function month(yyyyMm: string): DrillFilterModel {
  const [y, m] = yyyyMm.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return {
    arrivalDate: {
      filterType: 'date',
      operator: 'AND',
      conditions: [
        { filterType: 'date', type: 'greaterThanOrEqual', dateFrom: `${yyyyMm}-01` },
        { filterType: 'date', type: 'lessThan', dateFrom: `${next}-01` },
      ],
    },
  };
}

/** The rows of every spelling of a resolved firm, in one role or in either. */
export function firm(role: 'importer' | 'exporter' | 'any', firmId: string): DrillFilterModel {
  return { [`${role}Firm`]: { filterType: 'firm', firmId } };
}

export function drill(datasetId: string, label: string, ...models: DrillFilterModel[]): Drill {
  return { datasetId, label, filterModel: Object.assign({}, ...models) as DrillFilterModel };
}
