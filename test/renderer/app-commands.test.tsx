// @vitest-environment jsdom
import { act, cleanup, render, waitFor } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import type { AppCommand } from '@shared/app/app-contract';
import { commandForKey, handleCommand } from '../../src/renderer/src/app/commands';
import { setApi } from '../../src/renderer/src/bridge/api';
import { FilterForm, filterStore, validateDraft } from '../../src/renderer/src/features/filters';
import { useFirmsStore, useResolvedFirmsStore } from '../../src/renderer/src/features/firms';
import { useReviewStore } from '../../src/renderer/src/features/firms/review-store';
import { reviewKey } from '../../src/renderer/src/features/firms/review-keys';
import { APP_COMMANDS, shortcutKeys } from '@shared/app/command-table';
import { paletteActions } from '../../src/renderer/src/app/palette-actions';
import { ShortcutsDialog } from '../../src/renderer/src/app/shortcuts-dialog';
import { UsagePage } from '../../src/renderer/src/features/usage';
import type { ReviewPairView } from '@shared/resolution/resolution-contract';
import { useSearchStore } from '../../src/renderer/src/features/search';
import { useSessionStore, useUsageStore } from '../../src/renderer/src/session';
import { resetAllStores } from '../../src/renderer/src/store';
import { fakeBridge, ok, reading } from './fake-bridge';

/** The menu's commands as the renderer handles them: every variant of AppCommand, one case each. */
const profile: ProfileView = {
  id: 'pa',
  name: 'Head office',
  baseUrl: 'https://svc.example',
  accountName: '',
  apiKeyMasked: '••••1234',
  hasSecret: true,
  demo: false,
};
const bridge = fakeBridge({
  'usage.get': () => ok(reading({ main: { 'shipments/search': { current: 0, limit: 150_000 } } })),
  // Never answers: a search in flight.
  'shipments.search': () => new Promise(() => undefined),
  'firms.search': () => new Promise(() => undefined),
});
const sent = (channel: string) => bridge.log.filter((c) => c.channel === channel).length;

beforeAll(() => setApi(bridge.api));
beforeEach(async () => {
  resetAllStores();
  bridge.log.length = 0;
  filterStore.getState().reset();
  useSessionStore.setState({ profiles: [profile], activeId: 'pa', page: 'usage', booted: true });
  await act(() => useUsageStore.getState().refresh());
});
afterEach(cleanup);

describe('menu commands', () => {
  it('Go → a page shows it (and leaves the welcome screen); an unknown page is ignored', () => {
    handleCommand({ command: 'navigate', target: 'library' });
    expect(useSessionStore.getState()).toMatchObject({ page: 'library', welcomeDismissed: true });
    handleCommand({ command: 'navigate', target: 'nowhere' } as unknown as AppCommand);
    expect(useSessionStore.getState().page).toBe('library');
  });

  it('Refresh Usage shows the Usage page, which reads the figures once; on the page it is its Refresh', async () => {
    act(() => useSessionStore.setState({ page: 'library' }));
    const before = sent('usage.get');
    await act(async () => handleCommand({ command: 'refresh-usage' }));
    expect(useSessionStore.getState().page).toBe('usage');
    render(<UsagePage />);
    await waitFor(() => expect(sent('usage.get')).toBe(before + 1));
    await act(async () => handleCommand({ command: 'refresh-usage' }));
    await waitFor(() => expect(sent('usage.get')).toBe(before + 2));
    expect(APP_COMMANDS.find((c) => c.id === 'refresh-usage')).toMatchObject({ menu: 'view' });
  });

  it('Edit Filter opens the Search page and focuses the first field of the filter once it is on screen', async () => {
    handleCommand({ command: 'focus-filter' });
    expect(useSessionStore.getState()).toMatchObject({ page: 'search', filterFocusPending: true });
    const { container } = render(
      <FilterForm validation={validateDraft(filterStore.getState().draft, 'filter')} />,
    );
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('data-testid')).toBe('filter-importer_countries-input'),
    );
    expect(container.contains(document.activeElement)).toBe(true);
    expect(useSessionStore.getState().filterFocusPending).toBe(false);
    // On the Firms page, whose form edits the same filter, it stays there.
    act(() => useSessionStore.setState({ page: 'firms' }));
    handleCommand({ command: 'focus-filter' });
    expect(useSessionStore.getState().page).toBe('firms');
  });

  it('Run Search sends nothing while the form would refuse to run, then runs the search on its page', () => {
    filterStore.getState().setText('product_detail', 'st');
    handleCommand({ command: 'run-search' });
    expect(useSessionStore.getState().page).toBe('search');
    expect(sent('shipments.search') + sent('library.findEquivalent')).toBe(0);
    expect(useSearchStore.getState().status).toBe('idle');

    filterStore.getState().setText('product_detail', 'steel');
    act(() => useSessionStore.setState({ page: 'settings' }));
    handleCommand({ command: 'run-search' });
    expect(useSessionStore.getState().page).toBe('search');
    expect(useSearchStore.getState().status).toBe('running');
    // A second press while it runs starts nothing more.
    handleCommand({ command: 'run-search' });
    return waitFor(() => expect(sent('library.findEquivalent')).toBe(1));
  });

  it('Run Search on the Firms page runs the firm search there', async () => {
    filterStore.getState().setText('importer_firm', 'Acme');
    act(() => useSessionStore.setState({ page: 'firms' }));
    handleCommand({ command: 'run-search' });
    expect(useSessionStore.getState().page).toBe('firms');
    await waitFor(() => expect(sent('firms.search')).toBe(1));
    expect(useFirmsStore.getState().status).toBe('running');
    expect(sent('shipments.search')).toBe(0);
  });

  it('a review-queue command opens the queue from elsewhere, and acts on the pair only once it is shown', () => {
    const pair = (a: string, b: string) =>
      ({ a: { partyId: a, name: a }, b: { partyId: b, name: b } }) as unknown as ReviewPairView;
    useReviewStore.setState({ pairs: [pair('p1', 'p2'), pair('p3', 'p4')], index: 0, total: 2 });
    handleCommand({ command: 'review', action: 'next' });
    expect(useSessionStore.getState().page).toBe('firms');
    expect(useResolvedFirmsStore.getState().tab).toBe('review');
    // Not yet moved: the analyst had not seen the queue when they asked.
    expect(useReviewStore.getState().index).toBe(0);
    handleCommand({ command: 'review', action: 'next' });
    expect(useReviewStore.getState().index).toBe(1);
    handleCommand({ command: 'review', action: 'previous' });
    expect(useReviewStore.getState().index).toBe(0);
    expect(sent('resolution.decide')).toBe(0);
  });

  it('the review commands’ shortcuts, as the menu and the palette show them, are the keys the queue takes', () => {
    const review = APP_COMMANDS.filter((c) => c.command.command === 'review');
    expect(review).toHaveLength(5);
    // Each accelerator, pressed in the queue, is the action its item sends.
    const domKey: Record<string, string> = { Up: 'ArrowUp', Down: 'ArrowDown' };
    for (const c of review) {
      const parts = (c.accelerator ?? '').split('+');
      const last = parts[parts.length - 1] ?? '';
      const action = reviewKey({
        key: domKey[last] ?? last.toLowerCase(),
        ctrlKey: parts.includes('CmdOrCtrl'),
        metaKey: false,
        altKey: false,
        shiftKey: false,
        target: null,
      });
      expect(action, c.label).toBe(c.command.command === 'review' ? c.command.action : null);
    }
  });

  it('maps the browser host’s keys to the same commands', () => {
    const key = (k: string, mods: Partial<KeyboardEvent> = {}) =>
      commandForKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
    expect(key('Enter', { ctrlKey: true })).toEqual({ command: 'run-search' });
    expect(key('Enter', { metaKey: true })).toEqual({ command: 'run-search' });
    expect(key('l', { ctrlKey: true })).toEqual({ command: 'focus-filter' });
    expect(key('Enter')).toBeNull();
    expect(key('l', { ctrlKey: true, shiftKey: true })).toBeNull();
    // The review queue's keys are the page's own: a letter typed in a field elsewhere is just a letter.
    expect(key('a')).toBeNull();
    expect(key('z', { ctrlKey: true })).toBeNull();
  });
});

describe('Help → Keyboard Shortcuts', () => {
  it('Ctrl+/ opens a list of every shortcut of the command table, with the keys the menu and the palette show', async () => {
    useSessionStore.setState({ appInfo: { version: '1', host: 'browser', platform: 'linux' } });
    const { getByTestId, queryByTestId } = render(<ShortcutsDialog />);
    expect(queryByTestId('shortcuts-dialog')).toBeNull();
    const cmd = commandForKey({ key: '/', ctrlKey: true, metaKey: false, altKey: false, shiftKey: false });
    expect(cmd).toEqual({ command: 'shortcuts' });
    act(() => handleCommand(cmd as AppCommand));
    await waitFor(() => expect(getByTestId('shortcuts-dialog')).toBeTruthy());
    const withKeys = APP_COMMANDS.filter((c) => c.accelerator);
    expect(withKeys.length).toBeGreaterThan(10);
    for (const c of withKeys) {
      const row = getByTestId(`shortcut-${c.id}`);
      expect(row.textContent, c.id).toContain(c.label);
      const keys = paletteActions(
        { presets: [], datasets: [], watches: [], platform: 'linux' },
        {
          command: () => undefined,
          loadPreset: () => undefined,
          openDataset: () => undefined,
          refreshWatch: () => undefined,
          watchDataset: () => undefined,
          setColorScheme: () => undefined,
        },
      ).find((a) => a.id === c.id)?.shortcut;
      // The palette lists every command but itself (it is open when its list is read).
      if (c.id !== 'command-palette') expect(keys, c.id).toBeDefined();
      expect(row.querySelector('[aria-label^="Shortcut"]')?.getAttribute('aria-label'), c.id).toBe(
        `Shortcut ${shortcutKeys(c.accelerator ?? '', 'linux').join('+')}`,
      );
      if (keys) expect(keys).toEqual(shortcutKeys(c.accelerator ?? '', 'linux'));
    }
    expect(getByTestId('shortcut-shortcuts').textContent).toContain('Keyboard Shortcuts');
    expect(getByTestId('shortcut-run-search').textContent).toContain('CtrlEnter');
  });
});
