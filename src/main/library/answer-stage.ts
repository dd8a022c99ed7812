import { DuckDBBlobValue } from '@duckdb/node-api';
import { checkedRecordList } from '@shared/spec/records';
import type { Db, PreparedAlone } from './db';
import { SHIPMENT_COLUMNS, textTypedExpression } from './fields';
import { rowColumnNames, stagingTableDdl } from './ingest';
import { quoteLiteral } from './parquet-typing';
import { SHIPMENT_SHADOWS } from './shadows';

/**
 * A search answer's records as DuckDB's strict JSON transform reads them: every field of the spec as
 * text. Strict, it refuses a record that lacks a field or names one twice (JSON.parse keeps the last
 * of two, DuckDB the first), and any JSON that is not well-formed UTF-8 or holds a lone surrogate.
 */
const ANSWER_STRUCTURE = JSON.stringify({
  shipments: [Object.fromEntries(SHIPMENT_COLUMNS.map((c) => [c.field, 'VARCHAR']))],
});

/**
 * Rows of the row table's shape from the answer's bytes ($1, a BLOB): the dataset's id, the row number,
 * each field's text with empty text as NULL (as `appendRecords` stores it), no extra fields, and the
 * typed shadows under the shared value rules in their SQL form (test/fields checks the two forms agree).
 */
function answerInsertSql(table: string, datasetId: string): string {
  const fields = SHIPMENT_COLUMNS.map((c) => `NULLIF(s."${c.field}", '') AS "${c.field}"`).join(', ');
  const shadows = SHIPMENT_SHADOWS.map((s) => textTypedExpression(SHIPMENT_COLUMNS[s.index]!)).join(', ');
  const names = SHIPMENT_COLUMNS.map((c) => `"${c.field}"`).join(', ');
  return (
    `INSERT INTO ${table} (${rowColumnNames('shipments').join(', ')}) ` +
    `SELECT ${quoteLiteral(datasetId)}, row_no, ${names}, NULL, ${shadows} FROM (` +
    `SELECT (i - 1)::INTEGER AS row_no, ${fields} FROM (` +
    `SELECT unnest(a.shipments) AS s, generate_subscripts(a.shipments, 1) AS i FROM (` +
    `SELECT json_transform_strict(decode($1::BLOB), ${quoteLiteral(ANSWER_STRUCTURE)}) AS a)))`
  );
}

/**
 * A shipment search's answer stored straight from the bytes of its body, by DuckDB, on its own threads,
 * while this thread parses and checks the same bytes: the rows are in (a table of the library's
 * in-memory catalog) soon after the parse ends, where converting the parsed records took as long again
 * after it (the README's "Search ingest" has the figures).
 *
 * Prepared while the request is out (`prepare`), started with the very JSON text the client parses
 * (`begin`: as ASCII where the client could write it so, else the body's own bytes), and taken only when
 * it holds exactly the records the parser checked (`rowsOf`): the parser's check, its errors and its
 * messages stay the one judge of an answer. An answer DuckDB reads otherwise than JSON.parse (a field
 * named twice, a lone surrogate, bytes that are not UTF-8), or whose records are not exactly the spec's
 * fields, is stored from the parsed records instead.
 */
export class AnswerStage {
  private started: Promise<number> | null = null;
  private settled = false;

  private constructor(
    private readonly statement: PreparedAlone,
    /** The table the rows go to, `catalog.name`. */
    readonly table: string,
  ) {}

  /** Creates `table` (in an in-memory catalog) and prepares the statement that fills it. */
  static async prepare(db: Db, table: string, datasetId: string): Promise<AnswerStage> {
    const statement = await db.prepareAlone(
      [stagingTableDdl('shipments', table)],
      answerInsertSql(table, datasetId),
    );
    return new AnswerStage(statement, table);
  }

  /**
   * Starts storing the answer from its body's bytes, read at once (DuckDB keeps its own copy). Only the
   * first call counts: a call answers once.
   */
  begin(bytes: Uint8Array): void {
    if (this.started || this.settled) return;
    this.started = this.statement.start([new DuckDBBlobValue(bytes)]);
    this.started.catch(() => undefined);
  }

  /**
   * The number of rows stored, when they are `records` exactly: the parser checked this very list and
   * found every record in the spec's fields and order, and DuckDB read as many. Null otherwise, and the
   * table is dropped, so that the records can be stored into it from the parsed objects.
   */
  async rowsOf(records: readonly unknown[]): Promise<number | null> {
    const rows = this.started ? await this.started.catch(() => null) : null;
    if (rows !== null && rows === records.length && checkedRecordList(records)?.allInSpecOrder === true) {
      this.settled = true;
      this.statement.close();
      return rows;
    }
    await this.discard();
    return null;
  }

  /** Drops the table and what it holds (a search that failed, a save that went the other way). */
  async discard(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.started?.catch(() => undefined);
    await this.statement.run(`DROP TABLE IF EXISTS ${this.table}`).catch(() => undefined);
    this.statement.close();
  }
}
