// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import { setApi } from '../../src/renderer/src/bridge/api';
import { UsagePage } from '../../src/renderer/src/features/usage';
import { useSessionStore, useUsageStore } from '../../src/renderer/src/session';
import { resetAllStores } from '../../src/renderer/src/store';
import { fakeBridge, ok, reading } from './fake-bridge';

let summary: UsageSummary;
/** When main last read the service for `summary`; main answers with that read until a minute later. */
let readAt: number;
const answers = { 'usage.get': () => ok(reading(summary, readAt)) } as const;
const bridge = fakeBridge(answers);

beforeAll(() => setApi(bridge.api));
beforeEach(() => {
  resetAllStores();
  bridge.log.length = 0;
  bridge.answer(answers);
  useSessionStore.setState({ activeId: 'p1', page: 'usage', booted: true });
  // Read over a minute ago: the next Refresh reaches the service.
  readAt = Date.now() - 61_000;
  summary = {
    main: {
      'shipments/search': { current: 149_000, limit: 150_000 },
      searchedHsCodes: { current: 2, limit: 3, notes: '720810, 720827' },
      dailyRequest: { current: 12, limit: -1, notes: 'unlimited' },
    },
  };
});
afterEach(cleanup);

describe('usage page', () => {
  it('reads the usage when it opens and shows each metric as the app names it, with what is left', async () => {
    render(<UsagePage />);
    // Until the first figures arrive the page says what it is doing.
    expect(screen.getByTestId('usage-loading').textContent).toBe(
      "Reading the usage of this profile's accounts…",
    );
    const row = await screen.findByTestId('usage-main-shipments-search');
    expect(bridge.callsTo('usage.get')).toHaveLength(1);
    expect(screen.queryByTestId('usage-loading')).toBeNull();
    expect(row.getAttribute('data-current')).toBe('149000');
    expect(within(row).getByRole('rowheader').textContent).toBe('Shipment search (downloads)');
    expect(screen.getByTestId('usage-main-shipments-search-text').textContent).toBe(
      '149,000 / 150,000 (1,000 left)',
    );
    // Nearly spent: the meter says how much, in the warning colour of the theme.
    const meter = within(row).getByRole('progressbar');
    expect(meter.getAttribute('aria-label')).toBe('Shipment search (downloads): 149,000 of 150,000 used');
    expect(meter.getAttribute('aria-valuenow')).toBe(String((149_000 / 150_000) * 100));
    // A limit with no ceiling reads as a usage table says it, never "12 / unlimited", and says it once:
    // no meter, no "No limit" beside "no limit".
    expect(screen.getByTestId('usage-main-dailyRequest-text').textContent).toBe('12 used · no limit');
    const unlimitedRow = screen.getByTestId('usage-main-dailyRequest');
    expect(within(unlimitedRow).queryByRole('progressbar')).toBeNull();
    expect(
      within(unlimitedRow)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['12 used · no limit']);
    expect(unlimitedRow.textContent?.match(/no limit/gi)).toHaveLength(1);
    // The HS codes already counted, as the service listed them.
    expect(
      within(screen.getByTestId('usage-main-searchedHsCodes-codes'))
        .getAllByText(/^\d+$/)
        .map((c) => c.textContent),
    ).toEqual(['720810', '720827']);
    // Service names of metrics stay out of the page.
    expect(screen.getByTestId('usage-page').textContent).not.toMatch(/shipments\/search|dailyRequest/);
  });

  it('Refresh reads again and shows the new figures; a failed read says so in words and keeps the last figures', async () => {
    render(<UsagePage />);
    await screen.findByTestId('usage-main-shipments-search');
    summary = { main: { 'shipments/search': { current: 150_000, limit: 150_000 } } };
    readAt = Date.now();
    await waitFor(() => expect(screen.getByTestId('usage-refresh').getAttribute('aria-disabled')).toBeNull());
    fireEvent.click(screen.getByTestId('usage-refresh'));
    await waitFor(() =>
      expect(screen.getByTestId('usage-main-shipments-search-text').textContent).toBe(
        '150,000 / 150,000 (0 left)',
      ),
    );
    expect(bridge.callsTo('usage.get')).toHaveLength(2);
    bridge.answer({
      'usage.get': () => ({ ok: false, error: { kind: 'NetworkError', message: 'connect ECONNREFUSED' } }),
    });
    // The figures came from a read just now: Refresh waits for the minute, then reads again.
    act(() => useUsageStore.setState({ nextReadAt: Date.now() - 1 }));
    await waitFor(() => expect(screen.getByTestId('usage-refresh').getAttribute('aria-disabled')).toBeNull());
    fireEvent.click(screen.getByTestId('usage-refresh'));
    const error = await screen.findByTestId('usage-error');
    expect(error.textContent).not.toContain('NetworkError');
    expect(screen.getByTestId('usage-main-shipments-search')).toBeTruthy();
    await act(async () => undefined);
    expect(useUsageStore.getState().loading).toBe(false);
    expect((screen.getByTestId('usage-refresh') as HTMLButtonElement).disabled).toBe(false);
  });

  it('says when the figures were read from the service; a Refresh within the minute waits and says until when', async () => {
    const read = new Date(2026, 10, 27, 9, 15, 0).getTime();
    readAt = read;
    vi.useFakeTimers({ now: read + 20_000, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      render(<UsagePage />);
      await act(async () => vi.advanceTimersByTimeAsync(0));
      screen.getByTestId('usage-main-shipments-search');
      const readAtText = screen.getByTestId('usage-read-at');
      expect(readAtText.textContent).toBe(`Read from the service at ${new Date(read).toLocaleTimeString()}`);
      const refresh = screen.getByTestId('usage-refresh');
      // Main would answer with the same read: Refresh says so instead of pretending to refresh.
      expect(refresh.getAttribute('aria-disabled')).toBe('true');
      expect(refresh.getAttribute('aria-description')).toContain(
        `the next read is possible at ${new Date(read + 60_000).toLocaleTimeString()}`,
      );
      fireEvent.click(refresh);
      await act(async () => undefined);
      expect(bridge.callsTo('usage.get')).toHaveLength(1);
      await act(async () => vi.advanceTimersByTimeAsync(30_000));
      expect(screen.getByTestId('usage-refresh').getAttribute('aria-disabled')).toBe('true');
      expect(readAtText.textContent).toBe(`Read from the service at ${new Date(read).toLocaleTimeString()}`);
      // The minute is over: Refresh reads again, and the time shown is that of the new read.
      await act(async () => vi.advanceTimersByTimeAsync(10_000));
      expect(screen.getByTestId('usage-refresh').getAttribute('aria-disabled')).toBeNull();
      readAt = read + 61_000;
      fireEvent.click(screen.getByTestId('usage-refresh'));
      await act(async () => vi.advanceTimersByTimeAsync(0));
      expect(bridge.callsTo('usage.get')).toHaveLength(2);
      expect(screen.getByTestId('usage-read-at').textContent).toBe(
        `Read from the service at ${new Date(read + 61_000).toLocaleTimeString()}`,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
