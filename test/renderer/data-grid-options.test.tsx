// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import type { ColDef, GridApi } from 'ag-grid-community';
import { DataGrid } from '../../src/renderer/src/components/grid/data-grid';

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
    await waitFor(() => expect(screen.getByTestId('g-rows').textContent).toBe('2 rows'));
    const reapplied: string[] = [];
    api!.addEventListener('componentStateChanged', (e) => {
      reapplied.push(...Object.keys(e).filter((k) => !['type', 'api', 'context'].includes(k)));
    });
    rerender(element());
    rerender(element());
    await new Promise((r) => setTimeout(r, 50));
    expect(reapplied).toEqual([]);
  });
});
