// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import type { ColDef, GridApi } from 'ag-grid-community';
import { DataGrid } from '../../src/renderer/src/components/grid/data-grid';
import { optionsReappliedAcrossRenders } from './grid-options';

interface Row {
  name: string;
}
const COLUMNS: ColDef<Row>[] = [{ field: 'name', headerName: 'Name' }];
const ROWS: Row[] = [{ name: 'Gulf Trading' }, { name: 'Anadolu Ambalaj' }];

afterEach(cleanup);

describe('DataGrid rendered again', () => {
  it('does not hand ag-grid its options anew (each one it takes as changed, it reapplies)', async () => {
    let api: GridApi | null = null;
    const onApi = (a: GridApi | null) => {
      api = a;
    };
    const element = () => (
      <DataGrid<Row>
        gridId="t-options"
        testId="g"
        rows={ROWS}
        columnDefs={COLUMNS}
        quickFilter=""
        onApi={onApi}
      />
    );
    const { rerender } = render(element());
    // ag-grid's first rows in jsdom can take over a second on a busy machine (the default wait).
    await waitFor(() => expect(screen.getByTestId('g-rows').textContent).toBe('2 rows'), { timeout: 10_000 });
    expect(await optionsReappliedAcrossRenders(api!, () => rerender(element()))).toEqual([]);
  });
});
