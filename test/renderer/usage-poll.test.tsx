// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import { setApi } from '../../src/renderer/src/bridge/api';
import { useSessionStore } from '../../src/renderer/src/session/session-store';
import { USAGE_POLL_MS, connectUsageStore, useUsageStore } from '../../src/renderer/src/session/usage-store';
import { fakeBridge, ok, reading } from './fake-bridge';

const summary: UsageSummary = { main: { dailyRequest: { current: 3, limit: 1000 } } };

/**
 * A scripted session of the window's own usage reads: while the analyst uses the window it asks once a
 * minute (main answers from its ledger within a minute of its last read, so the service is asked at
 * most that often: test/handlers/usage-session.test.ts), never while the window is hidden or in the
 * background, and figures that arrive with a search put the next read off.
 */
describe('usage read while the window is in use', () => {
  let visible = true;
  let focused = true;
  let disconnect: () => void = () => undefined;
  const bridge = fakeBridge({ 'usage.get': () => ok(reading(summary)) });
  const reads = () => bridge.callsTo('usage.get').length;
  const minutes = async (n: number) => {
    for (let i = 0; i < n; i++) await vi.advanceTimersByTimeAsync(USAGE_POLL_MS);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    visible = true;
    focused = true;
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => (visible ? 'visible' : 'hidden'));
    vi.spyOn(document, 'hasFocus').mockImplementation(() => focused);
    setApi(bridge.api);
    bridge.log.length = 0;
    useUsageStore.getState().reset();
    useSessionStore.setState({ activeId: 'p1' });
    disconnect = connectUsageStore();
  });

  afterEach(() => {
    disconnect();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('asks once a minute while the window is shown and focused', async () => {
    await minutes(3);
    expect(reads()).toBe(3);
    expect(bridge.callsTo('usage.get').every((c) => c.profileId === 'p1')).toBe(true);
    expect(useUsageStore.getState().summary).toEqual(summary);
  });

  it('asks nothing while the window is hidden or in the background, and reads stale figures on return', async () => {
    await minutes(1);
    expect(reads()).toBe(1);
    visible = false;
    await minutes(3);
    focused = false;
    visible = true;
    await minutes(2);
    expect(reads()).toBe(1);
    focused = true;
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(reads()).toBe(2);
    // Focus again within the minute: the figures are fresh, nothing is asked.
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(reads()).toBe(2);
  });

  it('figures that came with a search put the next read off', async () => {
    await vi.advanceTimersByTimeAsync(USAGE_POLL_MS - 10_000);
    bridge.emit('usage.changed', { profileId: 'p1', ...reading(summary) });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads()).toBe(0);
    await minutes(1);
    expect(reads()).toBe(1);
  });

  it('asks nothing without a profile', async () => {
    useSessionStore.setState({ activeId: null });
    bridge.log.length = 0;
    await minutes(2);
    expect(reads()).toBe(0);
  });
});
