// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { connectJobsStore } from '../../src/renderer/src/features/jobs/jobs-store';
import { fakeBridge, ok } from './fake-bridge';
import type { JobProgress, JobView } from '@shared/jobs/jobs-contract';
import * as panel from '../../src/renderer/src/features/jobs/jobs-panel';
import { JobsTray } from '../../src/renderer/src/features/jobs/jobs-tray';
import { useJobsStore } from '../../src/renderer/src/features/jobs/jobs-store';

/**
 * The jobs tray as an export and a fetch go through it: events pushed the way main sends them (an
 * export's later progress events name its step, "…: finishing"), the entry read as a person would.
 */
const bridge = fakeBridge({
  'jobs.list': () => ok({ running: [], resumable: [] }),
  'library.list': () => ok([]),
  'jobs.cancel': () => ok(undefined),
  'export.cancel': () => ok(undefined),
  'library.cancelImport': () => ok(undefined),
});
const emit = bridge.emit;

beforeAll(() => {
  setApi(bridge.api);
  // What the app connects at start: the tray follows main's job events.
  connectJobsStore();
});
afterEach(cleanup);

const progress = (jobId: string, label: string, done: number): JobProgress => ({
  kind: 'export',
  jobId,
  label,
  phase: 'rows',
  done,
  total: 2000,
  unit: 'rows',
  etaSeconds: null,
});

describe('JobsPanel', () => {
  it('is headed "Jobs" and names a finished export without its last step', async () => {
    useJobsStore.getState().openTray();
    render(<JobsTray />);
    await waitFor(() => expect(bridge.listeners('jobs.finished')).toBe(1));
    emit('jobs.progress', progress('exp-1', 'CSV export of Steel Q1', 0));
    emit('jobs.progress', progress('exp-1', 'CSV export of Steel Q1', 1200));
    emit('jobs.progress', progress('exp-1', 'CSV export of Steel Q1: finishing', 2000));
    expect(screen.getByTestId('jobs-heading').textContent).toBe('Jobs');
    // Styled as the other side panels' headings (a shipment's parties, a record, a firm's profile).
    expect(screen.getByTestId('jobs-heading').classList).toContain('mantine-Title-root');
    expect(screen.getByTestId('jobs-panel').getAttribute('aria-label')).toBe('Jobs');
    // While it runs, the step it is at is worth showing.
    expect(screen.getByTestId('job-running-exp-1').textContent).toContain(
      'CSV export of Steel Q1: finishing',
    );

    emit('jobs.finished', {
      kind: 'export',
      jobId: 'exp-1',
      outcome: 'succeeded',
      message: 'Exported 2,000 rows to /exports/Steel Q1.csv',
    });
    expect(screen.getByTestId('job-finished-text-exp-1').textContent).toBe(
      'CSV export of Steel Q1: Exported 2,000 rows to /exports/Steel Q1.csv',
    );
    expect(screen.getByTestId('job-finished-exp-1').getAttribute('data-outcome')).toBe('succeeded');
    // Its icon-only dismiss button says what it does on hover.
    fireEvent.mouseEnter(screen.getByTestId('job-dismiss-exp-1'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Dismiss');
  });

  it('says a failed job failed, and leaves cancelled and fetched ones to their own message', () => {
    render(<panel.JobsPanel />);
    emit('jobs.progress', progress('exp-2', 'Excel export of Steel', 10));
    emit('jobs.finished', {
      kind: 'export',
      jobId: 'exp-2',
      outcome: 'failed',
      message: 'The disk is full.',
    });
    expect(screen.getByTestId('job-finished-text-exp-2').textContent).toBe(
      'Excel export of Steel failed: The disk is full.',
    );

    emit('jobs.progress', progress('exp-3', 'Parquet export of Steel', 10));
    emit('jobs.finished', {
      kind: 'export',
      jobId: 'exp-3',
      outcome: 'cancelled',
      message: 'The export was cancelled; no file was written.',
    });
    expect(screen.getByTestId('job-finished-text-exp-3').textContent).toBe(
      'Parquet export of Steel: The export was cancelled; no file was written.',
    );

    emit('jobs.progress', {
      kind: 'shipments',
      jobId: 'fetch-1',
      label: 'Shipments · TR steel',
      done: 10,
      total: 2000,
      unit: 'records',
      etaSeconds: null,
      windowsDone: 0,
      windowsKnown: 1,
      recordsStored: 10,
      requestsUsed: 1,
      downloadsUsed: 10,
    });
    emit('jobs.finished', {
      kind: 'shipments',
      jobId: 'fetch-1',
      outcome: 'succeeded',
      message: 'Fetched 2,400 records.',
      datasetId: 'ds-9',
    });
    expect(screen.getByTestId('job-finished-text-fetch-1').textContent).toBe(
      'Shipments · TR steel: Fetched 2,400 records.',
    );
    expect(screen.getByTestId('job-open-fetch-1')).toBeTruthy();
  });

  it("drops a failed job's finished entry once it runs again: it no longer says the job can be resumed", () => {
    render(<panel.JobsPanel />);
    const fetch = (done: number): JobProgress => ({
      kind: 'shipments',
      jobId: 'fetch-7',
      label: 'Steel 2024',
      done,
      total: 30_000,
      unit: 'records',
      etaSeconds: null,
      windowsDone: 1,
      windowsKnown: 3,
      recordsStored: done,
      requestsUsed: 2,
      downloadsUsed: done,
    });
    emit('jobs.progress', fetch(7_698));
    emit('jobs.finished', {
      kind: 'shipments',
      jobId: 'fetch-7',
      outcome: 'failed',
      message: 'The service is having trouble; try again later. The job can be resumed.',
      datasetId: null,
    });
    expect(screen.getByTestId('job-finished-fetch-7').getAttribute('data-outcome')).toBe('failed');
    // Resumed: it runs again from where it stopped.
    emit('jobs.progress', fetch(8_000));
    expect(screen.getByTestId('job-running-fetch-7').textContent).toContain('Steel 2024');
    expect(screen.queryByTestId('job-finished-fetch-7')).toBeNull();
    emit('jobs.finished', {
      kind: 'shipments',
      jobId: 'fetch-7',
      outcome: 'succeeded',
      message: 'Fetched 30,000 records.',
      datasetId: 'ds-7',
    });
    expect(screen.getByTestId('job-finished-fetch-7').getAttribute('data-outcome')).toBe('succeeded');
  });

  it('Cancel goes to the call that owns the job: an export to export.cancel, an import to the library, a fetch to jobs.cancel', async () => {
    render(<panel.JobsPanel />);
    emit('jobs.progress', progress('exp-9', 'Excel export of Steel', 10));
    emit('jobs.progress', {
      kind: 'import',
      jobId: 'import-1',
      label: 'Import of steel.xlsx',
      done: 4096,
      total: 20_000,
      unit: 'rows',
      etaSeconds: null,
      step: null,
    });
    emit('jobs.progress', {
      kind: 'firms',
      jobId: 'fetch-2',
      label: 'Firms · TR',
      done: 0,
      total: 12,
      unit: 'pages',
      etaSeconds: null,
      windowsDone: 0,
      windowsKnown: 0,
      recordsStored: 0,
      requestsUsed: 0,
      downloadsUsed: 0,
    });
    // Only a fetch can be paused (it keeps what it paid for); the others have nothing to keep.
    expect(screen.queryByTestId('job-pause-exp-9')).toBeNull();
    expect(screen.queryByTestId('job-pause-import-1')).toBeNull();
    expect(screen.getByTestId('job-pause-fetch-2')).toBeTruthy();

    fireEvent.click(screen.getByTestId('job-cancel-fetch-2'));
    await waitFor(() => expect(bridge.callsTo('jobs.cancel')).toEqual([{ jobId: 'fetch-2' }]));
    // The jobs list that follows names fetches only: the export and the import stay in the tray.
    await waitFor(() => expect(screen.queryByTestId('job-running-fetch-2')).toBeNull());
    fireEvent.click(screen.getByTestId('job-cancel-exp-9'));
    await waitFor(() => expect(bridge.callsTo('export.cancel')).toEqual([{ jobId: 'exp-9' }]));
    fireEvent.click(screen.getByTestId('job-cancel-import-1'));
    await waitFor(() => expect(bridge.callsTo('library.cancelImport')).toHaveLength(1));
    expect(bridge.callsTo('jobs.cancel')).toHaveLength(1);
  });

  it('says how far a records fetch is through its date ranges, and a firm fetch by its pages alone', () => {
    render(<panel.JobsPanel />);
    const fetch = (kind: 'shipments' | 'firms', jobId: string, unit: 'records' | 'pages') =>
      emit('jobs.progress', {
        kind,
        jobId,
        label: jobId,
        done: 4,
        total: 12,
        unit,
        etaSeconds: null,
        windowsDone: 4,
        windowsKnown: 12,
        recordsStored: 400,
        requestsUsed: 4,
        downloadsUsed: 400,
      });
    fetch('shipments', 'fetch-records', 'records');
    fetch('firms', 'fetch-firms', 'pages');
    const detail = (id: string) => screen.getByTestId(`job-detail-${id}`).textContent ?? '';
    expect(detail('fetch-records')).toMatch(/^4 of 12 records \(33%\) · date range 4 of 12/);
    expect(detail('fetch-firms')).toMatch(/^4 of 12 pages \(33%\) · 400 records stored/);
    expect(detail('fetch-records') + detail('fetch-firms')).not.toContain('windows');
  });

  it('shows a fetch’s size from its first event, before anything is fetched, and that it is starting', () => {
    render(<panel.JobsPanel />);
    emit('jobs.progress', {
      kind: 'shipments',
      jobId: 'fetch-new',
      label: 'Steel 2024',
      done: 0,
      total: 4_321,
      unit: 'records',
      etaSeconds: null,
      windowsDone: 0,
      windowsKnown: 1,
      recordsStored: 0,
      requestsUsed: 0,
      downloadsUsed: 0,
    });
    expect(screen.getByTestId('job-detail-fetch-new').textContent).toBe(
      '0 of 4,321 records (0%) · date range 0 of 1 · starting…',
    );
    expect(screen.getByTestId('job-running-fetch-new').getAttribute('data-job-total')).toBe('4321');
  });
});

describe('JobsPanel: unfinished jobs', () => {
  const job = (id: string, label: string): JobView => ({
    id,
    kind: 'shipments',
    label,
    status: 'paused',
    profileId: null,
    done: 2000,
    total: 12_000,
    unit: 'records',
    etaSeconds: null,
    windowsDone: null,
    windowsKnown: null,
    recordsStored: 2000,
    error: null,
    createdAt: null,
  });

  it('fills one Resume button alone (one primary action), the others plain', () => {
    useJobsStore.setState({
      resumable: [job('j1', 'Steel Q1'), job('j2', 'Steel Q2'), job('j3', 'Copper 2024')],
    });
    render(<panel.JobsPanel />);
    const variants = ['j1', 'j2', 'j3'].map((id) =>
      screen.getByTestId(`job-resume-${id}`).getAttribute('data-variant'),
    );
    expect(variants).toEqual(['filled', 'default', 'default']);
  });
});
