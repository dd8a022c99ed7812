// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '../renderer/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from '../renderer/fake-bridge';
import type { BridgeResult } from '@shared/ipc/errors';
import * as button from '../../src/renderer/src/features/export/export-button';

/** The handle main issues for the chosen file. */
const STEEL = `fh_${'s'.repeat(32)}`;

/**
 * The Export dialog against the bridge as the renderer sees it: calls answered and events pushed the
 * way main does (including an outcome that arrives before the start call's answer). The real handlers
 * behind it are covered by test/handlers/export-handlers.test.ts and the end-to-end test.
 */
const calls: { channel: string; input: unknown }[] = [];
let answer: (channel: string, input: unknown) => BridgeResult<unknown>;
const bridge = fakeBridge(
  {},
  {
    fallback: async (channel, input) => {
      calls.push({ channel, input });
      return answer(channel, input);
    },
  },
);
const emit = bridge.emit;

beforeAll(() => setApi(bridge.api));
afterEach(() => {
  cleanup();
  calls.length = 0;
});

const source = {
  datasetId: 'ds-1',
  view: { columns: ['hsCode', 'usdFob'], sortModel: [], quickFilter: 'steel' },
};

describe('ExportButton', () => {
  it('asks before replacing, shows progress with the time left, and ends with the path', async () => {
    answer = (channel, input) => {
      if (channel === 'export.chooseTarget')
        return {
          ok: true,
          value: { handle: STEEL, name: 'Steel.xlsx', location: '/exports/Steel.xlsx' },
        };
      if (channel === 'export.start') {
        return (input as { overwrite?: boolean }).overwrite
          ? { ok: true, value: { jobId: 'job-1', path: '/exports/Steel.xlsx', handle: STEEL } }
          : { ok: false, error: { kind: 'Conflict', message: 'Steel.xlsx already exists. Replace it?' } };
      }
      return { ok: false, error: { kind: 'Internal', message: `unexpected ${channel}` } };
    };
    render(<button.ExportButton source={source} suggestedName="Steel" />);
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-summaries'));
    fireEvent.click(screen.getByTestId('export-choose'));
    await waitFor(() => expect(screen.getByTestId('export-path').textContent).toBe('/exports/Steel.xlsx'));
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() =>
      expect(screen.getByTestId('export-replace-question').textContent).toMatch(/Replace it\?/),
    );
    // Nothing was replaced yet: the only start call did not say overwrite.
    expect(calls.filter((c) => c.channel === 'export.start')).toHaveLength(1);

    fireEvent.click(screen.getByTestId('export-replace-yes'));
    await waitFor(() =>
      expect(screen.getByTestId('export-dialog').getAttribute('data-step')).toBe('running'),
    );
    expect(calls.at(-1)).toEqual({
      channel: 'export.start',
      // The chosen file travels back by its handle only; its path stays in main.
      input: { source, format: 'xlsx', summaries: true, target: STEEL, overwrite: true },
    });
    emit('jobs.progress', {
      kind: 'export',
      jobId: 'other',
      label: 'x',
      phase: 'rows',
      done: 1,
      total: 2,
      unit: 'rows',
      etaSeconds: null,
    });
    expect(screen.getByTestId('export-progress-text').textContent).toBe('Starting…');
    emit('jobs.progress', {
      kind: 'export',
      jobId: 'job-1',
      label: 'Excel',
      phase: 'rows',
      done: 500,
      total: 2000,
      unit: 'rows',
      etaSeconds: 3,
    });
    expect(screen.getByTestId('export-progress-text').textContent).toBe('500 of 2,000 rows · about 3 s left');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');

    emit('jobs.finished', {
      kind: 'export',
      jobId: 'job-1',
      outcome: 'succeeded',
      message: 'Exported 2,000 rows to /exports/Steel.xlsx',
    });
    expect(screen.getByTestId('export-done').getAttribute('data-outcome')).toBe('succeeded');
    expect(screen.getByTestId('export-done-path').textContent).toBe('/exports/Steel.xlsx');
  });

  it('cancels a running export through export.cancel and says nothing was written', async () => {
    answer = (channel) => {
      if (channel === 'export.start')
        return { ok: true, value: { jobId: 'job-2', path: '/exports/a.csv', handle: STEEL } };
      if (channel === 'export.cancel') {
        emit('jobs.finished', {
          kind: 'export',
          jobId: 'job-2',
          outcome: 'cancelled',
          message: 'The export was cancelled; no file was written.',
        });
        return { ok: true, value: undefined };
      }
      return { ok: false, error: { kind: 'Internal', message: `unexpected ${channel}` } };
    };
    render(<button.ExportButton source={{ datasetId: 'ds-1' }} />);
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-format-csv'));
    expect((screen.getByTestId('export-summaries') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() => screen.getByTestId('export-cancel'));
    fireEvent.click(screen.getByTestId('export-cancel'));
    await waitFor(() =>
      expect(screen.getByTestId('export-done').getAttribute('data-outcome')).toBe('cancelled'),
    );
    expect(calls.map((c) => c.channel)).toEqual(['export.start', 'export.cancel']);
    expect(calls[1]?.input).toEqual({ jobId: 'job-2' });
    expect(screen.queryByTestId('export-done-path')).toBeNull();
  });

  it('shows the outcome of an export that finished before its start call was answered', async () => {
    answer = (channel) => {
      if (channel === 'export.start') {
        emit('jobs.finished', {
          kind: 'export',
          jobId: 'job-3',
          outcome: 'succeeded',
          message: 'Exported 5 rows to /exports/b.parquet',
        });
        return { ok: true, value: { jobId: 'job-3', path: '/exports/b.parquet', handle: STEEL } };
      }
      return { ok: false, error: { kind: 'Internal', message: `unexpected ${channel}` } };
    };
    render(<button.ExportButton source={{ datasetId: 'ds-1' }} />);
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-format-parquet'));
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() =>
      expect(screen.getByTestId('export-done').getAttribute('data-outcome')).toBe('succeeded'),
    );
    expect(screen.getByTestId('export-done-path').textContent).toBe('/exports/b.parquet');
  });

  it('shows a refused export in the form, without leaving it', async () => {
    answer = () => ({
      ok: false,
      error: { kind: 'NotFound', message: 'That dataset is not in the library.' },
    });
    render(<button.ExportButton source={{ datasetId: 'gone' }} />);
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() =>
      expect(screen.getByTestId('export-error').getAttribute('data-error-kind')).toBe('NotFound'),
    );
    expect(screen.getByTestId('export-dialog').getAttribute('data-step')).toBe('form');
  });

  it('keyboard: focus moves into the dialog, Tab stays inside, Escape closes it and returns to Export…', async () => {
    render(<button.ExportButton source={{ datasetId: 'ds-1' }} />);
    screen.getByTestId('export-open').focus();
    fireEvent.click(screen.getByTestId('export-open'));
    const dialog = screen.getByTestId('export-dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // It opens on its primary action: Enter exports, as a dialog's Enter should (never the ✕).
    expect(document.activeElement).toBe(screen.getByTestId('export-start'));
    const items = [
      ...dialog.querySelectorAll<HTMLElement>(
        'button:not([disabled]), input:not([disabled]), select:not([disabled])',
      ),
    ];
    items[items.length - 1]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(items[items.length - 1]);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByTestId('export-dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('export-open')));
  });

  describe('this view or the whole dataset', () => {
    const columns = ['arrivalDate', 'importerName', 'hsCode', 'usdFob'];
    const started = () =>
      calls.filter((c) => c.channel === 'export.start').map((c) => (c.input as { source: unknown }).source);
    const scopeText = (id: string) =>
      document.querySelector(`label[for="${screen.getByTestId(id).id}"]`)?.textContent?.trim();
    beforeEach(() => {
      answer = (channel) =>
        channel === 'export.start'
          ? { ok: true, value: { jobId: 'job-s', path: '/exports/s.xlsx', handle: STEEL } }
          : { ok: false, error: { kind: 'Internal', message: `unexpected ${channel}` } };
    });

    it('from an unfiltered view, offers both, starts on the whole dataset and sends no view (so main writes every field)', async () => {
      const view = {
        columns,
        sortModel: [{ colId: 'usdFob', sort: 'desc' as const }],
        filterModel: {},
        quickFilter: '',
      };
      render(
        <button.ExportButton
          source={{ datasetId: 'ds-1', view }}
          counts={{ viewRows: 50_000, storedRows: 50_000 }}
        />,
      );
      fireEvent.click(screen.getByTestId('export-open'));
      expect(scopeText('export-scope-view')).toBe('This view — 4 columns, 50,000 rows, with its sort');
      expect(scopeText('export-scope-dataset')).toBe('Whole dataset — all fields, all 50,000 rows');
      expect(screen.getByTestId('export-scope').getAttribute('data-scope')).toBe('dataset');
      expect(screen.getByTestId('export-row-count').textContent).toBe('50,000 rows will be exported.');
      fireEvent.click(screen.getByTestId('export-start'));
      await waitFor(() => expect(started()).toEqual([{ datasetId: 'ds-1' }]));
    });

    it('from a filtered view, starts on the view with its row count; either can be chosen', async () => {
      const view = { columns, sortModel: [], filterModel: {}, quickFilter: 'steel' };
      render(
        <button.ExportButton
          source={{ datasetId: 'ds-1', view }}
          counts={{ viewRows: 1_234, storedRows: 50_000 }}
        />,
      );
      fireEvent.click(screen.getByTestId('export-open'));
      expect(scopeText('export-scope-view')).toBe('This view — 4 columns, 1,234 rows, with its filters');
      expect((screen.getByTestId('export-scope-view') as HTMLInputElement).checked).toBe(true);
      expect(screen.getByTestId('export-row-count').textContent).toBe('1,234 rows will be exported.');
      fireEvent.click(screen.getByTestId('export-scope-dataset'));
      expect(screen.getByTestId('export-row-count').textContent).toBe('50,000 rows will be exported.');
      fireEvent.click(screen.getByTestId('export-scope-view'));
      fireEvent.click(screen.getByTestId('export-start'));
      await waitFor(() => expect(started()).toEqual([{ datasetId: 'ds-1', view }]));
    });

    it('warns instead of exporting when the view matches no rows', async () => {
      const view = { columns, sortModel: [], filterModel: {}, quickFilter: 'nothing' };
      render(
        <button.ExportButton
          source={{ datasetId: 'ds-1', view }}
          counts={{ viewRows: 0, storedRows: 50_000 }}
        />,
      );
      fireEvent.click(screen.getByTestId('export-open'));
      const warning = screen.getByTestId('export-row-count');
      expect(warning.getAttribute('role')).toBe('alert');
      expect(warning.textContent).toMatch(
        /^No rows match the filters of this view, so there is nothing to export/,
      );
      expect((screen.getByTestId('export-start') as HTMLButtonElement).disabled).toBe(true);
      fireEvent.click(screen.getByTestId('export-scope-dataset'));
      expect((screen.getByTestId('export-start') as HTMLButtonElement).disabled).toBe(false);
    });

    it('warns for an empty dataset', () => {
      render(<button.ExportButton source={{ datasetId: 'ds-1' }} counts={{ viewRows: 0, storedRows: 0 }} />);
      fireEvent.click(screen.getByTestId('export-open'));
      expect(screen.queryByTestId('export-scope')).toBeNull();
      expect(screen.getByTestId('export-row-count').textContent).toBe(
        'This dataset has no rows, so there is nothing to export.',
      );
      expect((screen.getByTestId('export-start') as HTMLButtonElement).disabled).toBe(true);
    });

    it('reads a view given through resolveView when the dialog opens', () => {
      const view = {
        columns,
        sortModel: [],
        filterModel: { hsCode: { filterType: 'text' as const, type: 'equals' as const, filter: '7208' } },
      };
      render(<button.ExportButton source={{ datasetId: 'ds-1' }} resolveView={() => view} />);
      fireEvent.click(screen.getByTestId('export-open'));
      expect(scopeText('export-scope-view')).toBe('This view — 4 columns, with its filters');
      expect(scopeText('export-scope-dataset')).toBe('Whole dataset — all fields, all rows');
      expect(screen.getByTestId('export-scope').getAttribute('data-scope')).toBe('view');
      // Without counts the dialog does not guess how many rows there are.
      expect(screen.queryByTestId('export-row-count')).toBeNull();
    });
  });
});
