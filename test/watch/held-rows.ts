import { LOST_COLUMN, SNAPSHOT_COLUMN, type Library } from '../../src/main/library';

/** A watched dataset's row as the tests read it: its record, the snapshot it arrived in, the one it went in. */
export interface HeldRow {
  hashId: string;
  snapshot: string | null;
  lost: string | null;
}

/** Every row of a dataset with the snapshot marks the watch wrote into its extra columns. */
export async function heldRows(lib: Library, datasetId: string): Promise<HeldRow[]> {
  const all = await lib.reader.all(
    `SELECT "hashId" AS h, json_extract_string("_extra", '/${SNAPSHOT_COLUMN}') AS s,
            json_extract_string("_extra", '/${LOST_COLUMN}') AS l
       FROM shipment_rows WHERE dataset_id = $1`,
    [datasetId],
  );
  return all.map((r) => ({
    hashId: String(r.h),
    snapshot: r.s === null ? null : String(r.s),
    lost: r.l === null ? null : String(r.l),
  }));
}
