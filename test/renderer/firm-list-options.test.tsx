// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { getGridApi, type GridApi } from 'ag-grid-community';
import type { FirmListView, FirmSummaryView } from '@shared/resolution/resolution-contract';
import { FirmList } from '../../src/renderer/src/features/firms/firm-list';
import { useResolvedFirmsStore } from '../../src/renderer/src/features/firms/resolved-firms-store';
import { optionsReappliedAcrossRenders } from './grid-options';

/**
 * The Firms page's list renders again at every answered block (its count) and every tick: ag-grid takes
 * each option handed to it anew as changed and reapplies it, so none is.
 */
const firm = (firmId: string, name: string): FirmSummaryView => ({
  firmId,
  name,
  country: 'TR',
  countryName: 'Türkiye',
  spellings: 1,
  asImporter: 3,
  asExporter: 0,
  listed: 0,
  evidence: [],
});
const FIRMS = [firm('f1', 'Anadolu Ambalaj'), firm('f2', 'Gulf Trading')];
const LIST: FirmListView = {
  firms: FIRMS,
  total: FIRMS.length,
  status: {
    resolvedAt: '2026-11-28T09:00:00Z',
    parties: 2,
    firms: 2,
    merged: 0,
    review: 0,
    decisions: 0,
    ms: 5,
  },
};

afterEach(() => {
  cleanup();
  useResolvedFirmsStore.getState().reset();
});

async function shownList(): Promise<GridApi> {
  act(() =>
    useResolvedFirmsStore.setState({
      fetchBlock: () => Promise.resolve(LIST),
    }),
  );
  render(<FirmList />);
  await waitFor(() => expect(document.querySelectorAll('.ag-row[row-id]')).toHaveLength(2), {
    timeout: 10_000,
  });
  const api = getGridApi(screen.getByTestId('firm-list'));
  if (!api) throw new Error('no grid in the firm list');
  return api;
}

describe('the firm list rendered again', () => {
  it('hands ag-grid no option anew when a count comes', async () => {
    const api = await shownList();
    let total = 2;
    const counted = () => act(() => useResolvedFirmsStore.setState({ total: (total += 1) }));
    expect(await optionsReappliedAcrossRenders(api, counted)).toEqual([]);
  });

  it('hands ag-grid no option anew when the analyst ticks firms for a merge', async () => {
    const api = await shownList();
    let n = 0;
    const ticked = () => act(() => useResolvedFirmsStore.getState().setMarked(n++ % 2 ? [FIRMS[0]!] : []));
    expect(await optionsReappliedAcrossRenders(api, ticked)).toEqual([]);
    // The ticks themselves are drawn.
    act(() => useResolvedFirmsStore.getState().setMarked([FIRMS[1]!]));
    await waitFor(() => expect(api.getRowNode('f2')?.isSelected()).toBe(true));
    expect(api.getRowNode('f1')?.isSelected()).toBe(false);
  });
});
