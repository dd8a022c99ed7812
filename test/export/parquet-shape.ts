/**
 * A column as a Portolan Parquet file describes it in its "portolan" metadata, as these tests read it:
 * written from the file's documented rule, not taken from the exporter, so the tests check the writer.
 */
export interface ParquetShape {
  name: string;
  type: string;
  decimals?: number;
  wholeDecimals?: number;
  grouped?: boolean;
}
