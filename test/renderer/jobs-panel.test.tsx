// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from './render';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { connectJobsStore } from '../../src/renderer/src/features/jobs/jobs-store';
import { fakeBridge, ok } from './fake-bridge';
import type { JobProgress } from '@shared/jobs/jobs-contract';
import * as panel from '../../src/renderer/src/features/jobs/jobs-panel';

/**
 * The jobs tray as an export and a fetch go through it: events pushed the way main sends them (an
 * export's later progress events name its step, "…: finishing"), the entry read as a person would.
 */
const bridge = fakeBridge({
  'jobs.list': () => ok({ running: [], resumable: [] }),
  'library.list': () => ok([]),
});
const emit = bridge.emit;

beforeAll(() => {
  setApi(bridge.api);
  // What the app connects at start: the tray follows main's job events.
  connectJobsStore();
});
afterEach(cleanup);

const progress = (jobId: string, label: string, done: number): JobProgress => ({
  jobId,
  label,
  done,
  total: 2000,
  unit: 'rows',
  etaSeconds: null,
});

describe('JobsPanel', () => {
  it('is headed "Jobs" and names a finished export without its last step', async () => {
    render(<panel.JobsPanel />);
    await waitFor(() => expect(bridge.listeners('jobs.finished')).toBe(1));
    emit('jobs.progress', progress('exp-1', 'CSV export of Steel Q1', 0));
    emit('jobs.progress', progress('exp-1', 'CSV export of Steel Q1', 1200));
    emit('jobs.progress', progress('exp-1', 'CSV export of Steel Q1: finishing', 2000));
    expect(screen.getByTestId('jobs-heading').textContent).toBe('Jobs');
    expect(screen.getByTestId('jobs-panel').getAttribute('aria-label')).toBe('Jobs');
    // While it runs, the step it is at is worth showing.
    expect(screen.getByTestId('job-running-exp-1').textContent).toContain(
      'CSV export of Steel Q1: finishing',
    );

    emit('jobs.finished', {
      jobId: 'exp-1',
      outcome: 'succeeded',
      message: 'Exported 2,000 rows to /exports/Steel Q1.csv',
    });
    expect(screen.getByTestId('job-finished-text-exp-1').textContent).toBe(
      'CSV export of Steel Q1: Exported 2,000 rows to /exports/Steel Q1.csv',
    );
    expect(screen.getByTestId('job-finished-exp-1').getAttribute('data-outcome')).toBe('succeeded');
  });

  it('says a failed job failed, and leaves cancelled and fetched ones to their own message', () => {
    render(<panel.JobsPanel />);
    emit('jobs.progress', progress('exp-2', 'Excel export of Steel', 10));
    emit('jobs.finished', { jobId: 'exp-2', outcome: 'failed', message: 'The disk is full.' });
    expect(screen.getByTestId('job-finished-text-exp-2').textContent).toBe(
      'Excel export of Steel failed: The disk is full.',
    );

    emit('jobs.progress', progress('exp-3', 'Parquet export of Steel', 10));
    emit('jobs.finished', {
      jobId: 'exp-3',
      outcome: 'cancelled',
      message: 'The export was cancelled; no file was written.',
    });
    expect(screen.getByTestId('job-finished-text-exp-3').textContent).toBe(
      'Parquet export of Steel: The export was cancelled; no file was written.',
    );

    emit('jobs.progress', { ...progress('fetch-1', 'Shipments · TR steel', 10), unit: 'records' });
    emit('jobs.finished', { jobId: 'fetch-1', outcome: 'succeeded', message: 'Fetched.', datasetId: 'ds-9' });
    expect(screen.getByTestId('job-finished-text-fetch-1').textContent).toBe(
      'Shipments · TR steel: Fetched.',
    );
    expect(screen.getByTestId('job-open-fetch-1')).toBeTruthy();
  });
});
