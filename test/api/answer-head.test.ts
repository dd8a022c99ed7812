import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAnswerHead } from '../../src/main/api';

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Values a record's text fields may hold: JSON's delimiters, escapes and characters beyond ASCII. */
const tricky = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('"', '\\', '\\"', '{', '}', '[', ']', ',', ':', '"shipments":[', '"total":5}', '\n\t', ''),
);
const record = fc.dictionary(
  fc.constantFrom('importerName', 'exporterName', 'productDetail', 'hsCode', 'fobValue'),
  fc.oneof(tricky, fc.constant(null), fc.integer(), fc.array(tricky, { maxLength: 2 })),
);

describe('the first records of a search answer, read from its start', () => {
  it('are the first records JSON.parse reads, with the total, whatever the records hold', () => {
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 12 }),
        fc.nat({ max: 1_000_000 }),
        fc.integer({ min: 1, max: 14 }),
        fc.constantFrom(undefined, 2, '\t'),
        (shipments, total, rows, space) => {
          const body = utf8(JSON.stringify({ total, shipments }, null, space));
          expect(readAnswerHead(body, rows)).toEqual({
            total,
            records: shipments.slice(0, rows),
            complete: rows >= shipments.length,
          });
        },
      ),
    );
  });

  it('reads the total after the list from the end of the body, and skips other members before the list', () => {
    const shipments = [{ importerName: 'A "total": 9}' }, { importerName: 'B' }, { importerName: 'C' }];
    const body = utf8(
      JSON.stringify({ note: { shipments: ['not this one'], total: 1 }, shipments, total: 30_000 }),
    );
    expect(readAnswerHead(body, 2)).toEqual({
      total: 30_000,
      records: shipments.slice(0, 2),
      complete: false,
    });
  });

  it('reads no total after the list from a start only: its end may be a record’s member named so', () => {
    const start = utf8('{"shipments":[{"a":"1"},{"a":"2","total":5}');
    expect(readAnswerHead(start, 1, false)).toBeNull();
    const body = utf8('{"shipments":[{"a":"1"},{"a":"2","total":5}],"total":2}');
    expect(readAnswerHead(body, 1, true)).toEqual({ total: 2, records: [{ a: '1' }], complete: false });
  });

  it('reads past a byte-order mark, as the client decodes one', () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      utf8('{"total":1,"shipments":[{"a":"é"}]}'),
    ]);
    expect(readAnswerHead(body, 5)).toEqual({ total: 1, records: [{ a: 'é' }], complete: true });
  });

  it('reads only the head: what comes after it is left to the whole answer’s parse', () => {
    // The third record is cut off: JSON.parse refuses the body, the head is still the first two records.
    const body = utf8('{"total":3,"shipments":[{"a":"1"},{"a":"2"},{"a":"3"');
    expect(readAnswerHead(body, 2)).toEqual({ total: 3, records: [{ a: '1' }, { a: '2' }], complete: false });
    expect(() => JSON.parse(body.toString('utf8'))).toThrow();
  });

  it.each([
    ['not an object', '[{"a":"1"}]'],
    ['no list of shipments', '{"total":3}'],
    ['shipments not a list', '{"total":3,"shipments":{"a":"1"}}'],
    ['no total', '{"shipments":[{"a":"1"}]}'],
    ['a total that is not a whole number', '{"total":"3","shipments":[{"a":"1"}]}'],
    ['a negative total', '{"total":-1,"shipments":[{"a":"1"}]}'],
    ['a fractional total', '{"total":2.5,"shipments":[{"a":"1"}]}'],
    ['a record cut off within the head', '{"total":3,"shipments":[{"a":"1"},{"a":"2'],
    ['records not separated', '{"total":3,"shipments":[{"a":"1"} {"a":"2"}]}'],
    ['a record that is not JSON', '{"total":3,"shipments":[{"a":1x},{"a":"2"}]}'],
    ['an empty body', ''],
  ])('is not read from %s (the answer is then shown once parsed)', (_, text) => {
    expect(readAnswerHead(utf8(text), 2)).toBeNull();
  });
});
