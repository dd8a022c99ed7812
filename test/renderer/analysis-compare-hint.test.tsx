// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { AnalysisPage } from '../../src/renderer/src/features/analysis/analysis-page';
import { DiffPanel } from '../../src/renderer/src/features/analysis/diff-panel';
import { useSessionStore } from '../../src/renderer/src/session';
import { fakeBridge } from './fake-bridge';
import { useAnalysisStore } from '../../src/renderer/src/features/analysis/analysis-store';

/**
 * Analysis → Compare datasets before anything is compared: the disabled Compare button comes with a
 * sentence saying what is missing, so the tab is never a blank page with a greyed-out button.
 */
const dataset = (id: string, name: string) => ({
  id,
  name,
  fetchedAt: '2026-01-01T00:00:00Z',
  storedRows: 50,
});

afterEach(cleanup);

function show(datasets: ReturnType<typeof dataset>[]): void {
  act(() =>
    useAnalysisStore.setState({
      datasets: { value: datasets, loading: false, error: null },
      datasetId: datasets[0]?.id ?? null,
      diff: { value: null, loading: false, error: null, compareId: null, role: 'importer' },
    }),
  );
  render(<DiffPanel />);
}

describe('Compare datasets, before a comparison', () => {
  it('with the chosen dataset alone in the library, says a second dataset is needed and where it comes from', () => {
    show([dataset('a', 'Steel, January')]);
    expect((screen.getByTestId('analysis-diff-run') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('analysis-diff-hint').textContent).toMatch(
      /^Compare needs a second shipments dataset in the Library: run the same search again later/,
    );
  });

  it('with another dataset to choose, asks for it, and says nothing more once it is chosen', () => {
    show([dataset('a', 'Steel, January'), dataset('b', 'Steel, February')]);
    expect(screen.getByTestId('analysis-diff-hint').textContent).toBe(
      'Choose the dataset to compare with (the later one), then Compare.',
    );
    fireEvent.change(screen.getByTestId('analysis-diff-compare'), { target: { value: 'b' } });
    expect(screen.queryByTestId('analysis-diff-hint')).toBeNull();
    expect((screen.getByTestId('analysis-diff-run') as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('the Analysis page header', () => {
  it('labels the Firms choice as Mantine labels Dataset and Measure, its note beside the label', async () => {
    setApi(fakeBridge({ 'analysis.datasets': async () => ({ ok: true, value: [] }) }).api);
    render(<AnalysisPage />);
    const label = (text: string) =>
      screen.getByText(text, { selector: '.mantine-InputWrapper-label, .mantine-InputWrapper-label *' });
    await screen.findByTestId('analysis-empty');
    expect(label('Dataset')).toBeTruthy();
    expect(label('Measure')).toBeTruthy();
    const firms = label('Firms').closest('.mantine-InputWrapper-label');
    expect(firms?.id).toBe('analysis-firms-label');
    expect(firms?.querySelector('[data-testid="analysis-figures-note"]')).not.toBeNull();
  });
});

describe('the Analysis page with no shipments dataset', () => {
  it('says what it needs and leads to the Search page', async () => {
    setApi(fakeBridge({ 'analysis.datasets': async () => ({ ok: true, value: [] }) }).api);
    act(() => useSessionStore.setState({ page: 'analysis' }));
    render(<AnalysisPage />);
    const empty = await screen.findByTestId('analysis-empty');
    expect(empty.textContent).toContain('Nothing to analyse yet');
    expect(empty.textContent).toContain('run a shipment search');
    fireEvent.click(screen.getByTestId('analysis-go-search'));
    expect(useSessionStore.getState().page).toBe('search');
  });
});
