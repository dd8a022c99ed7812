// @vitest-environment jsdom
import { act, renderHook } from './render';
import { describe, expect, it } from 'vitest';
import type { JobProgress } from '@shared/jobs/jobs-contract';
import { getApi, setApi } from '../../src/renderer/src/bridge/api';
import {
  connectJobsStore,
  useJobsStore,
  useRunningJobIds,
} from '../../src/renderer/src/features/jobs/jobs-store';
import { useSearchStore } from '../../src/renderer/src/features/search/search-store';
import { defineStore, latestWins, resetAllStores } from '../../src/renderer/src/store';
import { fakeBridge, ok } from './fake-bridge';

/** The renderer's one store idiom, its latest-answer-wins helper, and selector subscriptions. */
describe('latestWins', () => {
  it('keeps only the newest call current, and a supersede makes every call stale', () => {
    const calls = latestWins();
    const first = calls.begin();
    expect(first.current).toBe(true);
    const second = calls.begin();
    expect([first.current, second.current]).toEqual([false, true]);
    calls.supersede();
    expect(second.current).toBe(false);
    expect(calls.begin().current).toBe(true);
  });

  it('drops a slow earlier answer that arrives after a newer one', async () => {
    const reads = latestWins();
    const shown: string[] = [];
    const read = async (value: string, ms: number) => {
      const turn = reads.begin();
      await new Promise((r) => setTimeout(r, ms));
      if (turn.current) shown.push(value);
    };
    await Promise.all([read('old', 40), read('new', 5)]);
    expect(shown).toEqual(['new']);
  });
});

describe('defineStore', () => {
  it('starts from initialState, and reset() returns to it and clears what the actions keep', () => {
    let cleared = 0;
    const useCounter = defineStore<{ n: number; items: string[] }, { add(item: string): void }>(
      { n: 0, items: [] },
      (set, get, { onReset }) => {
        onReset(() => (cleared += 1));
        return { add: (item) => set({ n: get().n + 1, items: [...get().items, item] }) };
      },
    );
    useCounter.getState().add('a');
    expect(useCounter.getState()).toMatchObject({ n: 1, items: ['a'] });
    useCounter.getState().reset();
    expect(useCounter.getState()).toMatchObject({ n: 0, items: [] });
    expect(useCounter.initialState).toEqual({ n: 0, items: [] });
    expect(cleared).toBe(1);
    useCounter.getState().add('b');
    resetAllStores();
    expect(useCounter.getState().n).toBe(0);
  });

  it('reads the bridge only when an action runs: stores load before any bridge is installed', () => {
    // This file imported the search and jobs stores at its top, before any setApi.
    expect(useSearchStore.getState().status).toBe('idle');
    const bridge = fakeBridge();
    setApi(bridge.api);
    expect(getApi()).toBe(bridge.api);
  });
});

describe('selectors', () => {
  it('the running-jobs list does not re-render on a job’s progress events, only when a job starts or ends', () => {
    const bridge = fakeBridge({ 'jobs.list': () => ok({ running: [], resumable: [] }) });
    setApi(bridge.api);
    const disconnect = connectJobsStore();
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useRunningJobIds();
    });
    const progress = (done: number): JobProgress => ({
      kind: 'shipments',
      jobId: 'job-1',
      label: 'Shipments TR steel',
      done,
      total: 1000,
      unit: 'records',
      etaSeconds: 10,
      windowsDone: 0,
      windowsKnown: 1,
      recordsStored: done,
      requestsUsed: 1,
      downloadsUsed: done,
    });
    bridge.emit('jobs.progress', progress(0));
    expect(result.current).toEqual(['job-1']);
    const afterStart = renders;
    for (let done = 10; done <= 500; done += 10) bridge.emit('jobs.progress', progress(done));
    expect(useJobsStore.getState().running['job-1']?.done).toBe(500);
    expect(renders).toBe(afterStart);
    bridge.emit('jobs.finished', {
      kind: 'shipments',
      jobId: 'job-1',
      outcome: 'cancelled',
      message: 'Cancelled.',
      datasetId: null,
    });
    expect(result.current).toEqual([]);
    expect(renders).toBe(afterStart + 1);
    act(() => disconnect());
    expect(bridge.listeners('jobs.progress')).toBe(0);
  });
});
