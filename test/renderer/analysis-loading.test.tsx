// @vitest-environment jsdom
import { act, cleanup, render, screen } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnalysisDataset } from '@shared/analysis/analysis-contract';
import type { BridgeResult } from '@shared/ipc/errors';
import { setApi } from '../../src/renderer/src/bridge/api';
import { AnalysisPage } from '../../src/renderer/src/features/analysis/analysis-page';
import { useAnalysisStore } from '../../src/renderer/src/features/analysis/analysis-store';
import { fakeBridge, ok } from './fake-bridge';

afterEach(() => {
  cleanup();
  useAnalysisStore.getState().reset();
});

describe('analysis page: while the Library is read', () => {
  it('says it is loading the datasets, then makes way for what they hold', async () => {
    let answer: (r: BridgeResult<AnalysisDataset[]>) => void = () => undefined;
    setApi(
      fakeBridge({
        'analysis.datasets': () =>
          new Promise<BridgeResult<AnalysisDataset[]>>((resolve) => {
            answer = resolve;
          }),
      }).api,
    );
    render(<AnalysisPage />);
    expect(screen.getByTestId('analysis-datasets-loading').textContent).toBe(
      "Loading the Library's datasets…",
    );
    expect(screen.queryByTestId('analysis-empty')).toBeNull();

    await act(async () => answer(ok([])));
    expect(screen.queryByTestId('analysis-datasets-loading')).toBeNull();
    expect(screen.getByTestId('analysis-empty').textContent).toContain('Nothing to analyse yet');
  });
});
