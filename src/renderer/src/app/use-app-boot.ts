import { useEffect } from 'react';
import { getApi } from '../bridge/api';
import { onServiceOutcome } from '../bridge/service-outcomes';
import { callOutcome, useSessionStore } from '../session';
import { commandForKey, handleCommand } from './commands';

/** Loads app info and profiles once; follows menu commands and service outcomes while the app is mounted. */
export function useAppBoot(): void {
  useEffect(() => {
    const { boot, reportCallOutcome } = useSessionStore.getState();
    const offCommands = getApi().on('app.command', (cmd) => handleCommand(cmd));
    // Any page's service call tells the status bar whether the active profile's connection works.
    const offOutcomes = onServiceOutcome((o) => {
      const id = o.profileId ?? useSessionStore.getState().activeId;
      if (id === null) return;
      reportCallOutcome(id, callOutcome(o));
    });
    void boot();
    return () => {
      offCommands();
      offOutcomes();
    };
  }, []);
  useMenuShortcuts();
}

/**
 * In Electron the menu's accelerators send the commands (app.command); the browser host has no menu
 * bar, so there the page takes the same shortcuts from the keyboard.
 */
function useMenuShortcuts(): void {
  const browserHost = useSessionStore((s) => s.appInfo?.host === 'browser');
  useEffect(() => {
    if (!browserHost) return;
    const onKey = (e: KeyboardEvent): void => {
      const cmd = commandForKey(e);
      if (!cmd) return;
      e.preventDefault();
      handleCommand(cmd);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [browserHost]);
}
