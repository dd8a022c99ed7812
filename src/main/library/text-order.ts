import type { DatasetKind } from './fields';
import { findColumn } from './fields';

/**
 * Text sorts go through ICU's root collation (TEXT_COLLATION), whose sort key costs about a
 * microsecond a value: most of a second on a million distinct values (a hash or an id column). On
 * text made only of digits, ASCII letters of one case and hyphens, that collation orders exactly as
 * the bytes do — hyphen before digits before letters, shorter prefix first, and no case or accent
 * left to break a tie — so such a column may sort by its bytes: the same rows in the same order, in a
 * fifth of the time. Two punctuation marks, or both cases, would order differently ('_' sorts before
 * '-' in the collation and after it in bytes; "a1" before "B" in the collation and after it in bytes).
 */
const BYTE_ORDERED_TEXT = ['[0-9a-z-]*', '[0-9A-Z-]*'] as const;

/**
 * Whether every value of a text field in a dataset sorts in the same order by its bytes as under the
 * collation, read from `table` (the row table, or where a search's rows are held while they move into
 * the file): SQL answering one boolean per alphabet (`$1` is the dataset id). Each stops at the
 * first value outside its alphabet, so a column of names answers at once.
 */
function checkSql(table: string, field: string): string {
  const name = `"${field}"`;
  return `SELECT ${BYTE_ORDERED_TEXT.map(
    (alphabet, i) =>
      `NOT EXISTS (SELECT 1 FROM ${table} WHERE dataset_id = $1 AND NOT regexp_full_match(${name}, '${alphabet}')) AS a${i}`,
  ).join(', ')}`;
}

type Read = (sql: string, params: [string]) => Promise<Record<string, unknown> | undefined>;

/**
 * The text fields of each dataset found to sort by their bytes, checked on a field's first sort and
 * kept until the library next changes (`clear`): a filter only narrows the rows, so what holds for
 * the dataset holds for any view of it.
 */
export class TextOrder {
  private readonly known = new Map<string, Promise<boolean>>();
  /** Counts `clear` calls: an answer read while rows were being written is not used. */
  private generation = 0;

  constructor(private readonly read: Read) {}

  /** Of the fields a view sorts by, the text fields of this dataset that may sort by their bytes. */
  async byteOrdered(
    kind: DatasetKind,
    table: string,
    id: string,
    fields: readonly string[],
  ): Promise<Set<string>> {
    const generation = this.generation;
    const out = new Set<string>();
    for (const field of new Set(fields)) {
      if (findColumn(kind, field)?.type !== 'text') continue;
      if (await this.check(kind, table, id, field)) out.add(field);
    }
    // Rows written meanwhile may hold other characters: the collation is right whatever they hold.
    return generation === this.generation ? out : new Set();
  }

  /** Forgets every answer: rows were written. */
  clear(): void {
    this.generation += 1;
    this.known.clear();
  }

  private check(kind: DatasetKind, table: string, id: string, field: string): Promise<boolean> {
    const key = `${kind}\u0000${id}\u0000${field}`;
    let answer = this.known.get(key);
    if (!answer) {
      answer = this.read(checkSql(table, field), [id]).then((r) =>
        BYTE_ORDERED_TEXT.some((_, i) => r?.[`a${i}`] === true),
      );
      if (this.known.size >= 500) this.known.delete(this.known.keys().next().value!);
      this.known.set(key, answer);
      const asked = answer;
      asked.catch(() => {
        if (this.known.get(key) === asked) this.known.delete(key);
      });
    }
    return answer;
  }
}
