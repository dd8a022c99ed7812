// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from './render';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesState, ServiceConnection } from '@shared/profiles/profiles-contract';
import { StatusBar } from '../../src/renderer/src/app/status-bar';
import { connectServiceConnection, useSessionStore } from '../../src/renderer/src/session';
import { useServiceBackend } from './service-backend';

/**
 * The status bar over the real handlers and the service simulator, whose gateway answers 503 while a
 * Watched refresh runs: the connection says the service is not answering and Portolan tries again as
 * soon as the first 503 comes (the refresh still under way, waiting), and "connected" once it answers;
 * once nothing asks any more (the refresh cancelled), only that the service is not answering.
 */
// Nothing asking for 3 s is taken as nothing asking any more (45 s in the app): longer than the
// refresh's first pause between askings (2 s).
const backend = useServiceBackend({ events: true, quietAfterMs: 3_000 });
let disconnect: () => void = () => undefined;
const told: ServiceConnection[] = [];

beforeAll(async () => {
  backend.subscribe('service.connection', (c) => told.push(c as ServiceConnection));
  disconnect = connectServiceConnection();
  const profiles = await backend.invoke('profiles.list', undefined);
  if (!profiles.ok) throw new Error(profiles.error.message);
  useSessionStore.getState().applyProfiles(profiles.value as ProfilesState);
});
afterEach(cleanup);
afterAll(() => disconnect());

const request = { start_date: '2021-01-01', end_date: '2025-12-31', importer_countries: ['DE'] };

describe('the status bar while the service’s gateway answers 503', () => {
  it('says the service is not answering and Portolan tries again from the first 503, and connected once it answers', async () => {
    render(<StatusBar />);
    const preview = await backend.invoke('watch.preview', { request, name: 'DE' });
    if (!preview.ok) throw new Error(preview.error.message);
    const { previewId } = preview.value as { previewId: string };

    backend.setFaults({ errorRate: 1, errorStatuses: [503] });
    let settled = false;
    const refreshing = backend.invoke('watch.refresh', { previewId }).finally(() => (settled = true));
    const status = screen.getByTestId('status-connection');
    await waitFor(() => expect(status.textContent).toBe('service not answering — trying again…'), {
      timeout: 10_000,
    });
    // Said while the refresh waits out the gateway, not when it ends.
    expect(settled).toBe(false);
    expect(status.getAttribute('data-status')).toBe('waiting');
    expect(status.getAttribute('title')).toMatch(/^The service is not answering: /);
    expect(told.filter((c) => c.unavailable)).toHaveLength(1);

    backend.setFaults(undefined);
    await waitFor(() => expect(status.textContent).toBe('connected'), { timeout: 20_000 });
    const out = await act(() => refreshing);
    expect(out.ok).toBe(true);
    expect(status.getAttribute('data-status')).toBe('connected');
  }, 60_000);

  it('once the refresh is cancelled and nothing asks, says only that the service is not answering, until an answer comes', async () => {
    render(<StatusBar />);
    const status = screen.getByTestId('status-connection');
    const preview = await backend.invoke('watch.preview', { request, name: 'DE, cancelled' });
    if (!preview.ok) throw new Error(preview.error.message);
    const { previewId } = preview.value as { previewId: string };

    backend.setFaults({ errorRate: 1, errorStatuses: [503] });
    const refreshing = backend.invoke('watch.refresh', { previewId });
    await waitFor(() => expect(status.textContent).toBe('service not answering — trying again…'), {
      timeout: 10_000,
    });
    await backend.invoke('watch.cancelRefresh', { previewId });
    expect(await act(() => refreshing)).toMatchObject({ ok: false, error: { kind: 'Cancelled' } });

    await waitFor(() => expect(status.textContent).toBe('service not answering'), { timeout: 10_000 });
    expect(status.getAttribute('data-status')).toBe('waiting');
    expect(status.getAttribute('title')).toMatch(/^The service was not answering when last asked: /);

    // The next request that gets an answer says it is back.
    backend.setFaults(undefined);
    const counted = await backend.invoke('shipments.count', { request: { firm: 'acme' } });
    expect(counted.ok).toBe(true);
    await waitFor(() => expect(status.textContent).toBe('connected'));
  }, 60_000);
});
