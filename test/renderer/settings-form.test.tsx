// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from './render';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { BridgeResult } from '@shared/ipc/errors';
import * as app from '../../src/renderer/src/session/session-store';
import * as page from '../../src/renderer/src/features/settings/settings-page';
import * as settings from '../../src/renderer/src/features/settings/settings-store';
import { WelcomeScreen } from '../../src/renderer/src/app/welcome-screen';

/** Loaded by path so this DOM-typed file does not pull main-process types into the renderer's type check. */
interface SettingsBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  sent: string[];
  close(): Promise<void>;
}

let backend: SettingsBackend;

beforeAll(async () => {
  const backendPath = new URL('./settings-backend.ts', import.meta.url).pathname;
  const mod = (await import(/* @vite-ignore */ backendPath)) as {
    startSettingsBackend(): Promise<SettingsBackend>;
  };
  backend = await mod.startSettingsBackend();
  setApi(fakeBridge({}, { fallback: (c, i) => backend.invoke(c, i), checkInputs: false }).api);
}, 60_000);
afterAll(async () => {
  cleanup();
  // Mantine gives the focus back 10 ms after a dialog closes (the last test closes one): that timer has
  // to run while the test document still exists.
  await new Promise((r) => setTimeout(r, 50));
  await backend?.close();
});

beforeEach(async () => {
  cleanup();
  settings.useSettingsStore.getState().closeEditor();
  settings.useSettingsStore.getState().closeCredentials();
  await app.useSessionStore.getState().boot();
  const existing = app.useSessionStore.getState().profiles;
  for (const p of existing) await backend.invoke('profiles.delete', { id: p.id });
  await app.useSessionStore.getState().refreshProfiles();
  backend.sent.length = 0;
});

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

async function openNewProfile(fields: {
  name: string;
  baseUrl: string;
  apiKey?: string;
  apiSecret?: string;
}) {
  render(<page.SettingsPage />);
  fireEvent.click(screen.getByTestId('profile-new'));
  type('profile-name', fields.name);
  type('profile-base-url', fields.baseUrl);
  if (fields.apiKey !== undefined) type('profile-api-key', fields.apiKey);
  if (fields.apiSecret !== undefined) type('profile-api-secret', fields.apiSecret);
}

async function save(testId: string) {
  await act(async () => {
    fireEvent.click(screen.getByTestId(testId));
  });
}

describe('the profile form', () => {
  it('first run: "Connect your account" shows Settings with the new profile’s form open, its Name focused', async () => {
    render(<WelcomeScreen />);
    fireEvent.click(screen.getByTestId('welcome-connect'));
    expect(app.useSessionStore.getState().page).toBe('settings');
    cleanup();
    render(<page.SettingsPage />);
    const form = await screen.findByTestId('profile-form');
    expect(within(form).getByRole('heading').textContent).toBe('New connection profile');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('profile-name')));
    // No empty list asking for New profile under a form that is already open.
    expect(screen.queryByTestId('profiles-empty')).toBeNull();
  });

  it('shows a key and secret too short to be real at their fields, and sends nothing', async () => {
    await openNewProfile({ name: 'Probe', baseUrl: 'http://127.0.0.1:1', apiKey: 'k', apiSecret: 's' });
    await save('profile-save');
    expect(screen.getByTestId('profile-api-key-error').textContent).toBe(
      'At least 8 characters: paste the whole API key from the API tab of your account portal',
    );
    expect(screen.getByTestId('profile-api-secret-error').textContent).toMatch(
      /^At least 8 characters: paste the whole API secret/,
    );
    expect(backend.sent).not.toContain('profiles.create');

    // A key without its secret is shown at the secret, not sent half.
    type('profile-api-key', 'ak_live_long_enough_1');
    type('profile-api-secret', '');
    await save('profile-save');
    expect(screen.queryByTestId('profile-api-key-error')).toBeNull();
    expect(screen.getByTestId('profile-api-secret-error').textContent).toBe('The API secret is required');
    expect(backend.sent).not.toContain('profiles.create');
  });

  it('shows a bad service address at its field before saving', async () => {
    const cases: [string, string][] = [
      ['http://exa mple.com', 'Service address: the address must not contain spaces'],
      [
        'http://user:pw@127.0.0.1:39197/',
        'Service address: leave out the user name and password: the API key and secret go in the keychain instead',
      ],
      [
        'http://127.0.0.1:39197/api/v1/',
        'Service address: leave out /api/v1: Portolan adds it to every request (use http://127.0.0.1:39197/)',
      ],
    ];
    await openNewProfile({ name: 'Probe', baseUrl: 'https://' });
    for (const [baseUrl, message] of cases) {
      type('profile-base-url', baseUrl);
      expect(screen.queryByTestId('profile-base-url-error')).toBeNull();
      await save('profile-save');
      expect(screen.getByTestId('profile-base-url-error').textContent, baseUrl).toBe(message);
    }
    expect(backend.sent).not.toContain('profiles.create');
  });

  it('refuses a name another profile already has, whatever its case', async () => {
    await backend.invoke('profiles.create', { name: 'Probe', baseUrl: 'http://127.0.0.1:1' });
    await app.useSessionStore.getState().refreshProfiles();
    backend.sent.length = 0;
    await openNewProfile({ name: '  PROBE ', baseUrl: 'http://127.0.0.1:2' });
    await save('profile-save');
    expect(screen.getByTestId('profile-name-error').textContent).toBe(
      'Another profile already has this name',
    );
    expect(backend.sent).not.toContain('profiles.create');
  });

  it('sends a valid profile (an IDN address included) and shows it in the list', async () => {
    await openNewProfile({
      name: 'Probe',
      baseUrl: 'https://экзамен.рф/',
      apiKey: 'ak_live_long_enough_1',
      apiSecret: 'a-secret-long-enough',
    });
    await save('profile-save');
    await waitFor(() => expect(screen.queryByTestId('profile-form')).toBeNull());
    expect(backend.sent).toContain('profiles.create');
    const card = screen.getByTestId('profile-card');
    expect(within(card).getByTestId('profile-card-base-url').textContent).toBe('https://экзамен.рф/');
  });
});

describe('the credentials form', () => {
  it('shows a too-short secret at its field and sends nothing', async () => {
    await backend.invoke('profiles.create', { name: 'Probe', baseUrl: 'http://127.0.0.1:1' });
    await app.useSessionStore.getState().refreshProfiles();
    backend.sent.length = 0;
    render(<page.SettingsPage />);
    fireEvent.click(screen.getByTestId('profile-credentials'));
    type('credentials-api-key', 'ak_live_long_enough_1');
    type('credentials-api-secret', 'abc');
    await save('credentials-save');
    expect(screen.getByTestId('credentials-api-secret-error').textContent).toMatch(
      /^At least 8 characters: paste the whole API secret/,
    );
    expect(backend.sent).not.toContain('profiles.setCredentials');

    type('credentials-api-secret', 'a-secret-long-enough');
    await save('credentials-save');
    await waitFor(() => expect(screen.queryByTestId('credentials-form')).toBeNull());
    expect(backend.sent).toContain('profiles.setCredentials');
  });
});

describe('moving a profile to another server', () => {
  it('warns before saving, then asks for the key and secret again, which main removed', async () => {
    await backend.invoke('profiles.create', {
      name: 'Probe',
      baseUrl: 'https://api.example.com/',
      apiKey: 'ak_live_long_enough_1',
      apiSecret: 'a-secret-long-enough',
    });
    await app.useSessionStore.getState().refreshProfiles();
    render(<page.SettingsPage />);
    fireEvent.click(screen.getByTestId('profile-edit'));
    // Same server, another path: nothing to warn about.
    type('profile-base-url', 'https://api.example.com/v2/');
    expect(screen.getByText(/^The address of the Trade Shipment/)).toBeTruthy();
    type('profile-base-url', 'https://other.example.net/');
    expect(
      screen.getByText(/This is another server: the saved API key and secret stay with the old one/),
    ).toBeTruthy();
    await save('profile-save');
    const notice = await screen.findByTestId('credentials-notice');
    expect(notice.textContent).toContain('https://other.example.net');
    expect(screen.getByTestId('credentials-form')).toBeTruthy();
    const card = screen.getByTestId('profile-card');
    expect(within(card).getByTestId('profile-card-secret').textContent).not.toMatch(/stored/i);

    type('credentials-api-key', 'ak_live_other_server_2');
    type('credentials-api-secret', 'another-secret-long-enough');
    await save('credentials-save');
    await waitFor(() => expect(screen.queryByTestId('credentials-form')).toBeNull());
    const state = (await backend.invoke('profiles.list', undefined)) as {
      ok: true;
      value: { profiles: { hasSecret: boolean; baseUrl: string }[] };
    };
    expect(state.value.profiles[0]).toMatchObject({ baseUrl: 'https://other.example.net/', hasSecret: true });
  });
});

/** The filled (primary) buttons on the screen (Mantine's default variant sets no attribute): one at a time. */
const primaryButtons = () =>
  [
    ...document.querySelectorAll<HTMLButtonElement>(
      'button.mantine-Button-root:is([data-variant="filled"], :not([data-variant]))',
    ),
  ].map((b) => b.dataset.testid);

describe('keyboard and the one primary action', () => {
  it('New profile is the one primary action until a form opens; Escape closes the form and gives the focus back', async () => {
    await backend.invoke('profiles.create', { name: 'Probe', baseUrl: 'http://127.0.0.1:1' });
    await app.useSessionStore.getState().refreshProfiles();
    render(<page.SettingsPage />);
    expect(primaryButtons()).toEqual(['profile-new']);

    const opener = screen.getByTestId('profile-new');
    opener.focus();
    fireEvent.click(opener);
    expect(primaryButtons()).toEqual(['profile-save']);
    expect(document.activeElement).toBe(screen.getByTestId('profile-name'));
    fireEvent.keyDown(screen.getByTestId('profile-name'), { key: 'Escape' });
    expect(screen.queryByTestId('profile-form')).toBeNull();
    expect(document.activeElement).toBe(opener);

    // The key-and-secret form of a card: the same.
    const credentials = screen.getByTestId('profile-credentials');
    credentials.focus();
    fireEvent.click(credentials);
    expect(primaryButtons()).toEqual(['credentials-save']);
    expect(document.activeElement).toBe(screen.getByTestId('credentials-api-key'));
    fireEvent.keyDown(screen.getByTestId('credentials-api-key'), { key: 'Escape' });
    expect(screen.queryByTestId('credentials-form')).toBeNull();
    expect(document.activeElement).toBe(credentials);
    expect(primaryButtons()).toEqual(['profile-new']);
    expect(backend.sent).not.toContain('profiles.update');
    expect(backend.sent).not.toContain('profiles.setCredentials');
  });

  it('asks before deleting, naming the profile; Escape keeps it and the focus goes back to Delete', async () => {
    await backend.invoke('profiles.create', { name: 'Probe', baseUrl: 'http://127.0.0.1:1' });
    await app.useSessionStore.getState().refreshProfiles();
    backend.sent.length = 0;
    render(<page.SettingsPage />);
    const del = screen.getByTestId('profile-delete');
    del.focus();
    fireEvent.click(del);
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Delete the profile “Probe”?');
    expect(dialog.textContent).toContain('removed from the keychain');
    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(del));
    expect(backend.sent).not.toContain('profiles.delete');
    expect(screen.getAllByTestId('profile-card')).toHaveLength(1);

    fireEvent.click(del);
    await save('profile-delete-yes');
    await waitFor(() => expect(screen.queryByTestId('profile-card')).toBeNull());
    expect(backend.sent).toContain('profiles.delete');
    expect(screen.getByTestId('profiles-empty')).toBeTruthy();
  });
});
