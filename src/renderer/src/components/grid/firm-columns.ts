import type { ColDef } from 'ag-grid-community';
import { FIRM_FIELDS, FIRM_INTEGER_FIELDS, type FirmField, type FirmRecord } from '@shared/spec';

/** Column headers of the firm record's fields, for every firm grid. */
const FIRM_HEADERS: Record<FirmField, string> = {
  name: 'Name',
  country: 'Country',
  country_code: 'Country code',
  address: 'Address',
  city_state: 'City / state',
  tel: 'Telephone',
  e_mail: 'E-mail',
  web: 'Web',
  firm_type: 'Firm type',
  shipment_count: 'Shipments',
};

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
