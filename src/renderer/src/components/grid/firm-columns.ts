import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import { FIRM_FIELD_LABELS, PLAIN_NUMBER, formatNumber, numberDisplayOf } from '@shared/fields';
import { FIRM_FIELDS, FIRM_INTEGER_FIELDS, type FirmRecord } from '@shared/spec';
import { numberColumnContext } from './number-column';

const FIRM_HEADERS = FIRM_FIELD_LABELS;

const integers = new Set<string>(FIRM_INTEGER_FIELDS);

/** Every firm field of the spec as a grid column, ids equal to the field names (the library's SQL knows them). */
export function firmColumnDefs(): ColDef<FirmRecord>[] {
  return FIRM_FIELDS.map((f) =>
    integers.has(f)
      ? {
          colId: f,
          field: f,
          headerName: FIRM_HEADERS[f],
          headerTooltip: f,
          cellDataType: 'number',
          filter: 'agNumberColumnFilter',
          type: 'rightAligned',
          width: 120,
          context: numberColumnContext('firms', f),
          valueFormatter: (p: ValueFormatterParams<FirmRecord, number | null>) =>
            typeof p.value === 'number'
              ? formatNumber(p.value, numberDisplayOf('firms', f) ?? PLAIN_NUMBER)
              : '',
        }
      : {
          colId: f,
          field: f,
          headerName: FIRM_HEADERS[f],
          headerTooltip: f,
          cellDataType: 'text',
          filter: 'agTextColumnFilter',
          width: f === 'name' || f === 'address' ? 240 : 140,
        },
  );
}
