import {
  createMemorySource,
  shipmentColumns,
  toExportRows,
  type ExportSource,
  type QueryInfo,
} from '../../src/main/export';

export const sampleQuery: QueryInfo = {
  profile: 'Türkiye desk',
  account: 'acme-analytics',
  filter: {
    importer_countries: ['TR', 'CN'],
    hs_codes: ['8471', '6109'],
    start_date: '2024-01-01',
    end_date: '2024-06-30',
    product_detail: 'pamuk "örme"',
    firm_filter: [1, 3],
  },
  fetchedAt: '2024-07-01T08:30:00.000Z',
  totalReported: 123_456,
  appVersion: '0.1.0-test',
};

/** Shipment records as a source that aborts `controller` after its first batch and then yields another. */
export function abortingAfterFirstBatch(
  rows: readonly Record<string, unknown>[],
  controller: AbortController,
): ExportSource {
  const columns = shipmentColumns();
  return {
    ...createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery }),
    async *batches() {
      yield toExportRows(columns, rows);
      controller.abort();
      yield toExportRows(columns, rows);
    },
  };
}
