import { describe, expect, it } from 'vitest';
import { htmlTables } from '../../src/main/library/import/html-source';

describe('tables of a web page, read as Excel opens them', () => {
  it('reads rows and cells as text: entities, line breaks, spans, and tags a page leaves open', () => {
    const tables = htmlTables(
      '<TABLE><TR><TH>Importer<TH colspan="2">Value<TR><TD>A &amp; B<br/>Ltd <b>(HK)</b><TD>1&nbsp;200<TD>USD' +
        '<tr><td>  Beta\n  Metals </td><td></td><td>EUR</td></tr></TABLE>',
    );
    expect(tables).toEqual([
      {
        rows: [
          ['Importer', 'Value', ''],
          ['A & B Ltd (HK)', '1 200', 'USD'],
          ['Beta Metals', '', 'EUR'],
        ],
      },
    ]);
  });

  it('keeps a table inside a cell apart from the table around it, and drops tables without rows', () => {
    const tables = htmlTables(
      '<table><tr><td>Layout<table><tr><td>HS</td><td>Value</td></tr><tr><td>7208</td><td>5</td></tr></table></td></tr></table><table></table>',
    );
    expect(tables.map((t) => t.rows)).toEqual([
      [['Layout']],
      [
        ['HS', 'Value'],
        ['7208', '5'],
      ],
    ]);
  });

  it('caps a span a page uses for its layout', () => {
    const [table] = htmlTables('<table><tr><td colspan="100000">Title</td></tr></table>');
    expect(table!.rows[0]).toHaveLength(100);
  });
});
