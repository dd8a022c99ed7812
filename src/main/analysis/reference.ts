import { existsSync } from 'node:fs';
import { REFERENCE_CATALOG, type LibraryReader } from '../library';

/** The HS names, in the in-memory catalog the library attaches: reference data never lands in the library file. */
export const HS_NAMES_TABLE = `${REFERENCE_CATALOG}.hs_names`;

/**
 * Loads the HS nomenclature (`hs-codes.csv`: section,hscode,description,parent,level) once per library
 * into `hs_names(code, name)`. A missing file leaves the table empty: the summaries still work, rows
 * just have no names.
 */
export function ensureHsNames(reader: LibraryReader, csvPath: string): Promise<void> {
  return existsSync(csvPath)
    ? reader.loadReference(
        'hs_names',
        `SELECT hscode AS code, any_value(description) AS name
           FROM read_csv($1, header = true, all_varchar = true)
          WHERE hscode IS NOT NULL
          GROUP BY hscode`,
        [csvPath],
      )
    : reader.loadReference('hs_names', `SELECT NULL::VARCHAR AS code, NULL::VARCHAR AS name WHERE false`);
}
