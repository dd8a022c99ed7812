import { describe, expect, it } from 'vitest';
import type { AppCommand } from '@shared/app/app-contract';
import {
  APP_COMMANDS,
  commandForKeyEvent,
  matchesAccelerator,
  shortcutKeys,
  shortcutText,
} from '@shared/app/command-table';
import { PAGES } from '@shared/pages';
import { buildMenuTemplate } from '../../src/main/shell/menu';

type Item = {
  label?: string;
  accelerator?: string;
  registerAccelerator?: boolean;
  click?: () => void;
  submenu?: Item[];
};
const flatten = (items: Item[]): Item[] => items.flatMap((i) => [i, ...flatten(i.submenu ?? [])]);
const key = (
  k: string,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('the command table', () => {
  it('feeds the menu: every command is an item with its label and shortcut, and the item sends the command', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const sent: AppCommand[] = [];
      const items = flatten(
        buildMenuTemplate({
          platform,
          appName: 'Portolan',
          send: (c) => sent.push(c),
          showLog: () => undefined,
          dev: false,
        }) as Item[],
      );
      for (const c of APP_COMMANDS) {
        const item = items.find((i) => i.label === c.label);
        expect(item, `${platform}: ${c.label}`).toBeDefined();
        expect(item?.accelerator).toBe(c.accelerator);
        item?.click?.();
        expect(sent.at(-1)).toEqual(c.command);
      }
    }
  });

  it('has every page, Run Search, Edit Filter and the palette, each shortcut once', () => {
    expect(APP_COMMANDS.filter((c) => c.command.command === 'navigate').map((c) => c.label)).toEqual(
      PAGES.map((p) => p.menuLabel),
    );
    const byId = new Map(APP_COMMANDS.map((c) => [c.id, c.accelerator]));
    expect(byId.get('run-search')).toBe('CmdOrCtrl+Enter');
    expect(byId.get('focus-filter')).toBe('CmdOrCtrl+L');
    expect(byId.get('command-palette')).toBe('CmdOrCtrl+K');
    const accelerators = APP_COMMANDS.map((c) => c.accelerator).filter(Boolean);
    expect(new Set(accelerators).size).toBe(accelerators.length);
  });

  it('lists the review queue’s keys in a Firms menu, shown but not claimed', () => {
    const template = buildMenuTemplate({
      platform: 'linux',
      appName: 'Portolan',
      send: () => undefined,
      showLog: () => undefined,
      dev: false,
    }) as Item[];
    const firms = template.find((m) => m.label === 'F&irms');
    const review = APP_COMMANDS.filter((c) => c.command.command === 'review');
    expect(firms?.submenu?.map((i) => [i.label, i.accelerator, i.registerAccelerator])).toEqual(
      review.map((c) => [c.label, c.accelerator, false]),
    );
    expect(review.map((c) => c.label)).toEqual([
      'Same Firm',
      'Different Firms',
      'Next Pair',
      'Previous Pair',
      'Undo Last Verdict',
    ]);
    expect(shortcutKeys('Down', 'linux')).toEqual(['↓']);
    expect(shortcutText('CmdOrCtrl+Z', 'darwin')).toBe('⌘Z');
  });

  it('writes shortcuts as the platform does', () => {
    expect(shortcutKeys('CmdOrCtrl+Enter', 'linux')).toEqual(['Ctrl', 'Enter']);
    expect(shortcutText('CmdOrCtrl+K', 'win32')).toBe('Ctrl+K');
    expect(shortcutText('CmdOrCtrl+K', 'darwin')).toBe('⌘K');
    expect(shortcutKeys('CmdOrCtrl+Shift+l', 'linux')).toEqual(['Ctrl', 'Shift', 'L']);
  });

  it('matches a key press to its command: Ctrl or ⌘, exactly the modifiers of the shortcut', () => {
    expect(commandForKeyEvent(key('Enter', { ctrlKey: true }))).toEqual({ command: 'run-search' });
    expect(commandForKeyEvent(key('l', { metaKey: true }))).toEqual({ command: 'focus-filter' });
    expect(commandForKeyEvent(key('L', { ctrlKey: true }))).toEqual({ command: 'focus-filter' });
    expect(commandForKeyEvent(key('k', { ctrlKey: true }))).toEqual({ command: 'command-palette' });
    expect(commandForKeyEvent(key('3', { ctrlKey: true }))).toEqual({
      command: 'navigate',
      target: PAGES[2]?.id,
    });
    // Not a shortcut: no modifier, an extra modifier, another key.
    expect(commandForKeyEvent(key('Enter'))).toBeNull();
    expect(commandForKeyEvent(key('Enter', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(commandForKeyEvent(key('k', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(commandForKeyEvent(key('q', { ctrlKey: true }))).toBeNull();
    expect(matchesAccelerator('CmdOrCtrl+Shift+L', key('L', { ctrlKey: true, shiftKey: true }))).toBe(true);
  });
});
