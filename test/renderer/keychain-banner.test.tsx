// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { BridgeResult } from '@shared/ipc/errors';
import * as app from '../../src/renderer/src/session/session-store';
import * as page from '../../src/renderer/src/features/settings/settings-page';

/** Loaded by path so this DOM-typed file does not pull main-process types into the renderer's type check. */
interface SettingsBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  unlock(): void;
  close(): Promise<void>;
}

let backend: SettingsBackend;

beforeAll(async () => {
  const backendPath = new URL('./settings-backend.ts', import.meta.url).pathname;
  const mod = (await import(/* @vite-ignore */ backendPath)) as {
    startSettingsBackend(opts: { keyring: 'locked' }): Promise<SettingsBackend>;
  };
  backend = await mod.startSettingsBackend({ keyring: 'locked' });
  setApi(fakeBridge({}, { fallback: (c, i) => backend.invoke(c, i), checkInputs: false }).api);
}, 60_000);
afterAll(async () => {
  cleanup();
  await backend?.close();
});

describe('the keychain banner', () => {
  it('says what happened and what to do, the system’s text only as a detail; Check again clears it once unlocked', async () => {
    await app.useSessionStore.getState().boot();
    render(<page.SettingsPage />);
    const banner = await screen.findByTestId('keychain-banner');

    expect(screen.getByTestId('keychain-problem').textContent).toBe('Your login keyring is locked.');
    expect(screen.getByTestId('keychain-action').textContent).toBe(
      'Unlock your login keyring (log in to the desktop session, or open "Passwords and Keys" / KWallet and unlock it), then try again.',
    );
    expect(banner.textContent).toContain('The offline library and the demo workspace work without it.');
    expect(screen.getByTestId('keychain-detail').textContent).toBe(
      'The system said: Cannot create an item in a locked collection',
    );
    // The system's words appear once, in the detail, never in what the analyst reads first.
    expect(banner.textContent?.match(/locked collection/g)).toHaveLength(1);

    // Still locked: Check again asks main again, and the banner stays.
    await act(async () => {
      fireEvent.click(screen.getByTestId('keychain-check-again'));
    });
    expect(screen.getByTestId('keychain-banner')).toBeTruthy();

    backend.unlock();
    await act(async () => {
      fireEvent.click(screen.getByTestId('keychain-check-again'));
    });
    await waitFor(() => expect(screen.queryByTestId('keychain-banner')).toBeNull());
  });
});
