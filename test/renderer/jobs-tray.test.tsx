// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { EventChannel } from '@shared/ipc/channels';
import type { BridgeResult } from '@shared/ipc/errors';
import { FetchAllDialog } from '../../src/renderer/src/features/jobs/fetch-all-dialog';
import * as panel from '../../src/renderer/src/features/jobs/jobs-panel';
import * as store from '../../src/renderer/src/features/jobs/jobs-store';

/**
 * The jobs tray over the real jobs service and the service simulator (in process, through the real
 * dispatcher): pause, the question before paid-for records are discarded, errors of tray actions,
 * and the rate-limit countdown.
 */
/** What ./jobs-tray-backend.ts gives; restated here so this DOM-typed file does not type-check main's modules. */
interface Backend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
  forgetCredentials(): Promise<void>;
  stopService(): Promise<void>;
  startService(): Promise<void>;
  close(): Promise<void>;
}
interface BackendOptions {
  limits?: Record<string, number>;
  faults?: { latencyMs?: number };
}
let backend: Backend;
let connected = false;
const backends: Backend[] = [];
const listeners = new Map<EventChannel, Set<(p: unknown) => void>>();
let startTrayBackend: (opts: BackendOptions) => Promise<Backend>;

async function useBackend(opts: BackendOptions = {}): Promise<void> {
  backend = await startTrayBackend(opts);
  backends.push(backend);
  for (const event of ['jobs.progress', 'jobs.finished'] as const) {
    const b = backend;
    b.subscribe(event, (p) => {
      if (b === backend) listeners.get(event)?.forEach((l) => l(p));
    });
  }
  // What the app connects at start (once): the tray follows main's job events.
  if (!connected) {
    connected = true;
    store.connectJobsStore();
  }
  store.useJobsStore.setState({
    running: {},
    resumable: [],
    finished: [],
    error: null,
    errorFromList: false,
    discardQuestion: null,
  });
}

beforeAll(async () => {
  const backendPath = new URL('./jobs-tray-backend.ts', import.meta.url).pathname;
  ({ startTrayBackend } = (await import(/* @vite-ignore */ backendPath)) as {
    startTrayBackend: typeof startTrayBackend;
  });
  setApi(
    fakeBridge(
      {},
      {
        fallback: (c, i) => backend.invoke(c, i),
        checkInputs: false,
        subscribe: (event, listener) => {
          const set = listeners.get(event) ?? new Set();
          set.add(listener);
          listeners.set(event, set);
          return () => set.delete(listener);
        },
      },
    ).api,
  );
}, 60_000);
afterEach(cleanup);
afterAll(async () => {
  for (const b of backends) await b.close();
});

const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };

/** Fetch all → estimate → Start, as the dialog does; returns the running job's id. */
async function startFetch(): Promise<string> {
  await act(() => store.useJobsStore.getState().askFetchAll('shipments', filter));
  expect(store.useJobsStore.getState().dialog?.state).toBe('ready');
  await act(() => store.useJobsStore.getState().confirm());
  const ids = Object.keys(store.useJobsStore.getState().running);
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/**
 * The tray over a backend answering after `latencyMs`, with a fetch started from it that has stored
 * records (within `timeout`): its job id.
 */
async function fetchStoring(latencyMs: number, timeout = 20_000): Promise<string> {
  await useBackend({ faults: { latencyMs } });
  render(<panel.JobsPanel />);
  const jobId = await startFetch();
  await waitFor(
    () => expect(store.useJobsStore.getState().running[jobId]?.recordsStored ?? 0).toBeGreaterThan(0),
    { timeout },
  );
  return jobId;
}

async function libraryNames(): Promise<string[]> {
  const r = await backend.invoke('library.list', {});
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { name: string }[]).map((d) => d.name);
}

const until = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('jobs tray over the simulator', () => {
  it('a fetch-all preview from the total the search reported is worked out with no request', async () => {
    await useBackend();
    await act(() => store.useJobsStore.getState().askFetchAll('shipments', filter, 123_456));
    const d = store.useJobsStore.getState().dialog;
    expect(d?.state).toBe('ready');
    expect(d?.estimate).toMatchObject({ total: 123_456, probed: false, optimumRequests: 13 });
    render(<FetchAllDialog />);
    expect(screen.getByTestId('fetch-all-preview-cost').textContent).toMatch(/cost nothing/);
    act(() => store.useJobsStore.getState().dismissDialog());
  });

  it('Cancel asks before discarding paid-for records; Keep pauses instead; Pause and Resume keep going', async () => {
    const jobId = await fetchStoring(150);

    fireEvent.click(screen.getByTestId(`job-cancel-${jobId}`));
    const question = await screen.findByTestId('job-discard-question', {}, { timeout: 20_000 });
    const records = store.useJobsStore.getState().discardQuestion!.records;
    expect(question.textContent).toContain(
      `Discard ${records.toLocaleString('en-US')} downloaded records? They cost downloads and cannot be recovered.`,
    );
    // The job is paused while the question is open: it can neither finish nor fetch more meanwhile,
    // and the count asked about is what discarding would lose.
    expect(store.useJobsStore.getState().running[jobId]).toBeUndefined();
    expect(screen.getByTestId(`job-resumable-${jobId}`).getAttribute('data-status')).toBe('paused');
    const list = await backend.invoke('jobs.list', undefined);
    const kept = list.ok
      ? (list.value as { resumable: store.JobsState['resumable'] }).resumable.find((j) => j.id === jobId)
      : undefined;
    expect(kept?.recordsStored).toBe(records);

    fireEvent.click(screen.getByTestId('job-discard-keep'));
    expect(screen.queryByTestId('job-discard-question')).toBeNull();
    expect(screen.getByTestId(`job-resumable-${jobId}`).getAttribute('data-status')).toBe('paused');
    // Nothing half-made in the library.
    expect(await libraryNames()).toEqual([]);

    // Resume, then Pause from the running row: paused again, keeping what it had and more.
    fireEvent.click(screen.getByTestId(`job-resume-${jobId}`));
    await screen.findByTestId(`job-pause-${jobId}`, {}, { timeout: 20_000 });
    await waitFor(
      () =>
        expect(store.useJobsStore.getState().running[jobId]?.recordsStored ?? 0).toBeGreaterThan(
          kept!.recordsStored!,
        ),
      { timeout: 20_000 },
    );
    fireEvent.click(screen.getByTestId(`job-pause-${jobId}`));
    await waitFor(
      () => expect(screen.getByTestId(`job-resumable-${jobId}`).getAttribute('data-status')).toBe('paused'),
      { timeout: 20_000 },
    );
    expect(screen.getByTestId(`job-finished-${jobId}`).getAttribute('data-outcome')).toBe('paused');

    // Discard of a stopped job asks too; Discard then throws it away.
    fireEvent.click(screen.getByTestId(`job-discard-${jobId}`));
    await screen.findByTestId('job-discard-question');
    fireEvent.click(screen.getByTestId('job-discard-yes'));
    await waitFor(() => expect(screen.queryByTestId(`job-resumable-${jobId}`)).toBeNull(), {
      timeout: 20_000,
    });
    expect(await libraryNames()).toEqual([]);
  }, 90_000);

  it('"Go on fetching" after Cancel resumes the paused job, keeping what it had', async () => {
    const jobId = await fetchStoring(150);
    fireEvent.click(screen.getByTestId(`job-cancel-${jobId}`));
    await screen.findByTestId('job-discard-question', {}, { timeout: 20_000 });
    const records = store.useJobsStore.getState().discardQuestion!.records;

    fireEvent.click(screen.getByTestId('job-discard-back'));
    await screen.findByTestId(`job-pause-${jobId}`, {}, { timeout: 20_000 });
    expect(screen.queryByTestId('job-discard-question')).toBeNull();
    await waitFor(
      () => expect(store.useJobsStore.getState().running[jobId]?.recordsStored ?? 0).toBeGreaterThan(records),
      { timeout: 20_000 },
    );
    await act(() => store.useJobsStore.getState().pause(jobId));
    await screen.findByTestId(`job-resumable-${jobId}`, {}, { timeout: 20_000 });
  }, 90_000);

  it('a failed Resume shows its error in the tray until dismissed, across list refreshes', async () => {
    const jobId = await fetchStoring(150);
    await act(() => store.useJobsStore.getState().pause(jobId));
    await screen.findByTestId(`job-resumable-${jobId}`);

    await backend.forgetCredentials();
    fireEvent.click(screen.getByTestId(`job-resume-${jobId}`));
    const error = await screen.findByTestId('jobs-error');
    expect(error.getAttribute('data-error-kind')).toBe('NoCredentials');
    expect(error.textContent).toContain('The profile "QA sim" has no API key and secret yet');
    // The refresh that follows every action (and any later one) keeps it.
    await act(() => store.useJobsStore.getState().refresh());
    expect(screen.getByTestId('jobs-error').textContent).toContain('has no API key and secret');
    expect(screen.getByTestId(`job-resumable-${jobId}`)).toBeDefined();
    fireEvent.click(screen.getByTestId('jobs-error-dismiss'));
    expect(screen.queryByTestId('jobs-error')).toBeNull();
  }, 60_000);

  it('counts the rate-limit wait down live and includes it in the time left', async () => {
    // Tight enough that the job meets the per-minute window after a few windows (the estimate's usage
    // read is main's own figures now, not a request).
    await useBackend({ limits: { minutelyRequest: 8 } });
    render(<panel.JobsPanel />);
    const jobId = await startFetch();
    const waiting = await screen.findByTestId(`job-waiting-${jobId}`, {}, { timeout: 30_000 });
    const read = () => {
      const detail = screen.getByTestId(`job-detail-${jobId}`).textContent ?? '';
      const secs = (re: RegExp) => {
        const m = re.exec(detail);
        if (!m) return null;
        return m[1] ? Number(m[1]) * 60 + Number(m[2]) : Number(m[2]);
      };
      // The time left as describeTimeLeft says it: "a few seconds" (under 10), "about 45 s",
      // "about 3 min 10 s", "about 3 min".
      const left = /(a few seconds|about (?:(\d+) min)? ?(?:(\d+) s)?) left/.exec(detail);
      return {
        wait: secs(/waiting (?:(\d+) min )?(\d+) s for the rate limit/),
        left: !left
          ? null
          : left[1] === 'a few seconds'
            ? 9
            : Number(left[2] ?? 0) * 60 + Number(left[3] ?? 0),
      };
    };
    expect(waiting).toBeDefined();
    const first = read();
    expect(first.left, 'the time left is shown beside the wait').not.toBeNull();
    const endAtFirst = store.useJobsStore.getState().running[jobId]!.etaEnd;
    expect(endAtFirst).not.toBeNull();
    expect(first.wait).toBeGreaterThan(5);
    await act(() => until(2_600));
    const second = read();
    // No progress event comes during the wait; the tray counts down by itself.
    expect(second.wait).toBeLessThanOrEqual(first.wait! - 2);
    // Windows were fetched before the wait, so there is a pace to estimate from; the wait is part of it.
    expect(second.left).toBeGreaterThanOrEqual(second.wait!);
    // The time left is said in 5-s steps under a minute, so it never flickers: it may stay, never rise;
    // underneath, the end it counts down to did not move, so the time left fell with the clock.
    expect(second.left).toBeLessThanOrEqual(first.left!);
    expect(store.useJobsStore.getState().running[jobId]!.etaEnd).toBe(endAtFirst);
    // Pause ends the wait at once.
    await act(() => store.useJobsStore.getState().pause(jobId));
    await screen.findByTestId(`job-resumable-${jobId}`);
  }, 90_000);

  it('says in plain words that a job waits for a service that stopped answering, and goes on when it is back', async () => {
    const jobId = await fetchStoring(60, 30_000);
    await act(() => backend.stopService());
    const waiting = await screen.findByTestId(`job-waiting-service-${jobId}`, {}, { timeout: 15_000 });
    expect(waiting.textContent).toMatch(
      /^ · the service is not answering: waiting for it \(\d+ s so far\), and the job goes on by itself when it answers$/,
    );
    // Still a running job: Pause and Cancel stay there to use.
    expect(screen.getByTestId(`job-pause-${jobId}`).hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId(`job-cancel-${jobId}`).hasAttribute('disabled')).toBe(false);
    // The time waited counts on between events (none come while it waits): the next tick of the
    // tray's one-second clock shows it, however late a loaded machine runs that tick.
    await waitFor(
      () =>
        expect(screen.getByTestId(`job-waiting-service-${jobId}`).textContent).toMatch(
          /\(([1-9]|\d\d+) s so far\)/,
        ),
      { timeout: 10_000 },
    );
    // A window that knows the job only from the list (opened, or reloaded, during the wait) says it too.
    act(() => store.useJobsStore.setState({ running: {} }));
    expect(screen.queryByTestId(`job-waiting-service-${jobId}`)).toBeNull();
    await act(() => store.useJobsStore.getState().refresh());
    expect(screen.getByTestId(`job-waiting-service-${jobId}`).textContent).toMatch(
      /\(([1-9]|\d\d+) s so far\)/,
    );

    await act(() => backend.startService());
    const done = await screen.findByTestId(`job-finished-${jobId}`, {}, { timeout: 60_000 });
    expect(done.getAttribute('data-outcome')).toBe('succeeded');
    expect(screen.queryByTestId(`job-waiting-service-${jobId}`)).toBeNull();
  }, 90_000);
});
