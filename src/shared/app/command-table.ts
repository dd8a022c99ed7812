import { PAGES } from '../pages';
import type { AppCommand, ReviewAction } from './app-contract';

/**
 * The app's commands and their shortcuts, in one table: the Electron menu (src/main/shell/menu.ts)
 * builds its items from it, the command palette lists it with the same shortcuts, and the browser
 * host, which has no menu bar, takes the same keys from the keyboard (`commandForKeyEvent`).
 */
export interface CommandEntry {
  /** Stable name: the palette's action id, a test's handle. */
  id: string;
  command: AppCommand;
  /** As the menu and the palette name it. */
  label: string;
  /** What it does, in the palette. */
  description: string;
  /** The menu it sits in. */
  menu: 'file' | 'go' | 'view' | 'review' | 'help';
  /** Electron's accelerator syntax: `CmdOrCtrl+Enter`. */
  accelerator?: string;
  /**
   * The page that has the command takes its keys itself (the review queue's A, R, arrows): the menu
   * shows the shortcut without claiming the key, which would take a plain letter from every field of
   * the window, and the browser host's key handler leaves the key to the page.
   */
  pageKeys?: true;
}

const review = (
  action: ReviewAction,
  label: string,
  description: string,
  accelerator: string,
): CommandEntry => ({
  id: `review-${action}`,
  command: { command: 'review', action },
  label,
  description,
  menu: 'review',
  accelerator,
  pageKeys: true,
});

export const APP_COMMANDS: readonly CommandEntry[] = [
  ...PAGES.map((p, i): CommandEntry => ({
    id: `go-${p.id}`,
    command: { command: 'navigate', target: p.id },
    label: p.menuLabel,
    description: `Go to the ${p.label} page`,
    menu: 'go',
    accelerator: `CmdOrCtrl+${i + 1}`,
  })),
  {
    id: 'run-search',
    command: { command: 'run-search' },
    label: 'Run Search',
    description: 'Run the search of the page shown (Search or Firms), as its Run button would',
    menu: 'go',
    accelerator: 'CmdOrCtrl+Enter',
  },
  {
    id: 'focus-filter',
    command: { command: 'focus-filter' },
    label: 'Edit Filter',
    description: 'Show the filter and put the cursor in its first field',
    menu: 'go',
    accelerator: 'CmdOrCtrl+L',
  },
  {
    id: 'import-file',
    command: { command: 'import-file' },
    label: 'Import a File…',
    description: 'Import a spreadsheet, CSV, JSON or Parquet file into the Library',
    menu: 'file',
    accelerator: 'CmdOrCtrl+O',
  },
  {
    id: 'new-profile',
    command: { command: 'new-profile' },
    label: 'New Profile…',
    description: 'Add a connection profile to the service in Settings',
    menu: 'file',
  },
  {
    id: 'command-palette',
    command: { command: 'command-palette' },
    label: 'Command Palette…',
    description: 'Find a page, a preset, a dataset or a command by name',
    menu: 'view',
    accelerator: 'CmdOrCtrl+K',
  },
  {
    id: 'refresh-usage',
    command: { command: 'refresh-usage' },
    label: 'Refresh Usage',
    description: 'Show the Usage page with what the account has used read again (at most once a minute)',
    menu: 'view',
  },
  {
    id: 'shortcuts',
    command: { command: 'shortcuts' },
    label: 'Keyboard Shortcuts',
    description: 'List every shortcut of the app, as the menus and this palette show them',
    menu: 'help',
    accelerator: 'CmdOrCtrl+/',
  },
  review('same', 'Same Firm', 'Review queue: the pair shown is one firm', 'A'),
  review('different', 'Different Firms', 'Review queue: the pair shown is two firms', 'R'),
  review('next', 'Next Pair', 'Review queue: skip to the next pair (or →)', 'Down'),
  review('previous', 'Previous Pair', 'Review queue: back to the previous pair (or ←)', 'Up'),
  review('undo', 'Undo Last Verdict', 'Review queue: take the last verdict back', 'CmdOrCtrl+Z'),
];

export function commandsOfMenu(menu: CommandEntry['menu']): CommandEntry[] {
  return APP_COMMANDS.filter((c) => c.menu === menu);
}

const KEY_NAMES: Readonly<Record<string, string>> = {
  Enter: 'Enter',
  Plus: '+',
  Space: 'Space',
  Up: '↑',
  Down: '↓',
  Left: '←',
  Right: '→',
};

/**
 * An accelerator as the keys an analyst presses, for the palette and tooltips: `['Ctrl', 'Enter']`
 * on Windows and Linux, `['⌘', 'Enter']` on macOS.
 */
export function shortcutKeys(accelerator: string, platform: string): string[] {
  const mac = platform === 'darwin';
  return accelerator.split('+').map((part) => {
    if (part === 'CmdOrCtrl' || part === 'CommandOrControl') return mac ? '⌘' : 'Ctrl';
    if (part === 'Cmd' || part === 'Command') return '⌘';
    if (part === 'Alt') return mac ? '⌥' : 'Alt';
    if (part === 'Shift') return mac ? '⇧' : 'Shift';
    return KEY_NAMES[part] ?? part.toUpperCase();
  });
}

/** The shortcut as one line of text ("Ctrl+Enter"), as menus and tooltips write it. */
export function shortcutText(accelerator: string, platform: string): string {
  return shortcutKeys(accelerator, platform).join(platform === 'darwin' ? '' : '+');
}

/** The parts of a DOM keyboard event a shortcut is matched on. */
export interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** Whether a key press is the accelerator: the same key, exactly its modifiers (Ctrl or ⌘ for CmdOrCtrl). */
export function matchesAccelerator(accelerator: string, e: KeyEventLike): boolean {
  const parts = accelerator.split('+');
  const key = parts[parts.length - 1] ?? '';
  const mods = new Set(parts.slice(0, -1));
  const wantsMod = mods.has('CmdOrCtrl') || mods.has('CommandOrControl');
  if (wantsMod !== (e.ctrlKey || e.metaKey)) return false;
  if (mods.has('Shift') !== e.shiftKey || mods.has('Alt') !== e.altKey) return false;
  return e.key.toLowerCase() === key.toLowerCase();
}

/** The command of a key press, by the table's accelerators; null for any other key. */
export function commandForKeyEvent(e: KeyEventLike): AppCommand | null {
  const entry = APP_COMMANDS.find(
    (c) => c.accelerator && !c.pageKeys && matchesAccelerator(c.accelerator, e),
  );
  return entry?.command ?? null;
}
