// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import type { ColDef } from 'ag-grid-community';
import { DataGrid } from '../../src/renderer/src/components/grid/data-grid';

interface Row {
  name: string;
}
const COLUMNS: ColDef<Row>[] = [{ field: 'name', headerName: 'Name' }];
const ROWS: Row[] = [{ name: 'Gulf Trading' }, { name: 'Anadolu Ambalaj' }];

afterEach(cleanup);

describe('DataGrid with no row on screen', () => {
  it('says an empty answer in the app’s words, not ag-grid’s "No Rows To Show"', async () => {
    render(<DataGrid<Row> gridId="t-empty" testId="g" rows={[]} columnDefs={COLUMNS} quickFilter="" />);
    await waitFor(() => expect(screen.getByTestId('g-empty').textContent).toBe('This dataset has no rows'));
    expect(screen.getByTestId('g').textContent).not.toContain('No Rows To Show');
  });

  it('says when its rows are all filtered away, and nothing once a row shows', async () => {
    const { rerender } = render(
      <DataGrid<Row> gridId="t-filtered" testId="g" rows={ROWS} columnDefs={COLUMNS} quickFilter="zzz" />,
    );
    await waitFor(() => expect(screen.getByTestId('g-empty').textContent).toBe('No rows match the filters'));
    expect(screen.getByTestId('g').textContent).not.toContain('No Rows To Show');
    rerender(
      <DataGrid<Row> gridId="t-filtered" testId="g" rows={ROWS} columnDefs={COLUMNS} quickFilter="gulf" />,
    );
    await waitFor(() => expect(screen.queryByTestId('g-empty')).toBeNull());
  });
});
