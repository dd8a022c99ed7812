// @vitest-environment jsdom
import { act, cleanup, render, screen } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { FirmDetail } from '../../src/renderer/src/features/firms/firm-detail';
import { useResolvedFirmsStore } from '../../src/renderer/src/features/firms/resolved-firms-store';

/**
 * Firms → Firms in the library with nothing in the list: the panel beside it says why (an empty
 * library, a dataset without firms, a search or "written several ways" that matches none) instead of
 * asking the analyst to click a firm that is not there.
 */
afterEach(() => {
  cleanup();
  useResolvedFirmsStore.getState().reset();
});

function shown(state: {
  total: number | null;
  search?: string;
  mergedOnly?: boolean;
  datasetId?: string | null;
}) {
  act(() =>
    useResolvedFirmsStore.setState({
      openId: null,
      search: state.search ?? '',
      mergedOnly: state.mergedOnly ?? false,
      datasetId: state.datasetId ?? null,
      total: state.total,
    }),
  );
  render(<FirmDetail />);
  const panel = screen.getByTestId('firm-detail-empty');
  return { title: panel.querySelector('h2')?.textContent, text: panel.querySelector('p')?.textContent };
}

describe('the firm panel while no firm is open', () => {
  it('an empty library: where firms come from', () => {
    expect(shown({ total: 0 })).toEqual({
      title: 'No firms yet',
      text: expect.stringMatching(
        /^Firms come from the records you keep: run a search on the Search page, or import a file/,
      ),
    });
  });

  it('a search that finds none: says so with the words searched', () => {
    expect(shown({ total: 0, search: ' acme ' })).toEqual({
      title: 'No firm found',
      text: 'No firm in the library is written like “acme”. Check the spelling, or search by firm code.',
    });
  });

  it('“written several ways” in a dataset that has none: how to see them all', () => {
    expect(shown({ total: 0, mergedOnly: true, datasetId: 'd1' }).text).toBe(
      'Every firm in the chosen dataset is written one way. Clear “Only firms written several ways” to see them all.',
    );
  });

  it('a list with firms, or one still counted: asks to open one', () => {
    expect(shown({ total: 12 }).title).toBe('No firm open');
    cleanup();
    expect(shown({ total: null }).title).toBe('No firm open');
  });
});
