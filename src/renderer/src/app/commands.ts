import { usePaletteStore } from './palette-store';
import { useShortcutsStore } from './shortcuts-store';
import type { AppCommand } from '@shared/app/app-contract';
import { commandForKeyEvent } from '@shared/app/command-table';
import { runReviewAction, useFirmsStore, useResolvedFirmsStore } from '../features/firms';
import { useLibraryStore } from '../features/library';
import { runSearchCommand } from '../features/search';
import { useSettingsStore } from '../features/settings';
import { isPageId, refreshUsage, useSessionStore } from '../session';

/**
 * The menu's commands (and, in the browser host, their shortcuts), one case per variant of AppCommand:
 * a new variant fails lint (switch-exhaustiveness-check) until it is handled here.
 */
export function handleCommand(cmd: AppCommand): void {
  const session = useSessionStore.getState();
  switch (cmd.command) {
    case 'navigate':
      // The event crosses the bridge: a page this window does not know is ignored.
      if (isPageId(cmd.target)) session.showPage(cmd.target);
      return;
    case 'run-search':
      // The Firms page runs its firm search (shown first); anywhere else the shipment search runs, on its page.
      if (session.page === 'firms') {
        useResolvedFirmsStore.getState().setTab('search');
        if (useFirmsStore.getState().status !== 'running') void useFirmsStore.getState().search();
        return;
      }
      session.showPage('search');
      runSearchCommand();
      return;
    case 'focus-filter':
      // Both search pages show the one filter; elsewhere the Search page opens.
      if (session.page === 'firms') useResolvedFirmsStore.getState().setTab('search');
      else session.showPage('search');
      session.requestFilterFocus();
      return;
    case 'import-file':
      session.showPage('library');
      useLibraryStore.getState().requestImport();
      return;
    case 'new-profile':
      session.showPage('settings');
      useSettingsStore.getState().openCreate();
      return;
    case 'refresh-usage':
      // Opening the Usage page reads the figures; on it, the command is its Refresh. Main reads the
      // service only when the last read is a minute old.
      if (session.page === 'usage') void refreshUsage();
      else session.showPage('usage');
      return;
    case 'command-palette':
      usePaletteStore.getState().open();
      return;
    case 'shortcuts':
      useShortcutsStore.getState().open();
      return;
    case 'review': {
      // A verdict is given only on a pair the analyst has in front of them: from elsewhere, the
      // command opens the review queue and does nothing more.
      const shown = session.page === 'firms' && useResolvedFirmsStore.getState().tab === 'review';
      session.showPage('firms');
      useResolvedFirmsStore.getState().setTab('review');
      if (shown) runReviewAction(cmd.action);
      return;
    }
  }
}

/**
 * The browser host has no menu bar: its pages take the menu's shortcuts from the keyboard themselves,
 * by the same command table the menu is built from.
 */
export function commandForKey(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
): AppCommand | null {
  return commandForKeyEvent(e);
}

/**
 * First run, "Connect your account": Settings with the new profile's form already open (its first
 * field focused), rather than an empty list whose New profile must then be found and clicked.
 */
export function connectAccount(): void {
  useSessionStore.getState().connectAccount();
  useSettingsStore.getState().openCreate();
}
