// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { QuickFilterInput } from '../../src/renderer/src/components/grid/quick-filter-input';
import {
  useQuickFilter,
  useQuickFilterStore,
} from '../../src/renderer/src/components/grid/quick-filter-store';

afterEach(() => {
  cleanup();
  useQuickFilterStore.getState().reset();
});

/** A grid's page as the Search, Firms and Library pages wire it: the input, and the text the grid filters by. */
function GridPage({ gridKey, testId }: { gridKey: string; testId: string }) {
  const [quick] = useQuickFilter(gridKey);
  return (
    <>
      <QuickFilterInput gridKey={gridKey} testId={testId} />
      <output data-testid={`${testId}-applied`}>{quick}</output>
    </>
  );
}

describe('the grids’ one quick filter input', () => {
  it('filters its own grid only, is a labelled search field, and keeps its text when the page comes back', () => {
    const { unmount } = render(
      <>
        <GridPage gridKey="shipments" testId="search-quick-filter" />
        <GridPage gridKey="firms" testId="firms-quick-filter" />
      </>,
    );
    const input = screen.getByTestId('search-quick-filter') as HTMLInputElement;
    expect(input.type).toBe('search');
    expect(screen.getAllByLabelText('Quick filter')).toHaveLength(2);
    fireEvent.change(input, { target: { value: 'steel' } });
    expect(screen.getByTestId('search-quick-filter-applied').textContent).toBe('steel');
    expect(screen.getByTestId('firms-quick-filter-applied').textContent).toBe('');

    // Leaving the page unmounts the grid; coming back shows the same text, applied.
    unmount();
    render(<GridPage gridKey="shipments" testId="search-quick-filter" />);
    expect((screen.getByTestId('search-quick-filter') as HTMLInputElement).value).toBe('steel');
    expect(screen.getByTestId('search-quick-filter-applied').textContent).toBe('steel');

    fireEvent.change(screen.getByTestId('search-quick-filter'), { target: { value: '' } });
    expect(useQuickFilterStore.getState().texts).toEqual({});
  });
});
