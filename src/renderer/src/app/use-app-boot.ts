import { useEffect } from 'react';
import { getApi } from '../bridge/api';
import { onServiceOutcome } from '../bridge/service-outcomes';
import { useSessionStore } from '../session';

/** Loads app info and profiles once; follows menu commands and service outcomes while the app is mounted. */
export function useAppBoot(): void {
  useEffect(() => {
    const { boot, handleCommand, reportConnection } = useSessionStore.getState();
    const offCommands = getApi().on('app.command', (cmd) => handleCommand(cmd));
    // Any page's service call tells the status bar whether the active profile's connection works.
    const offOutcomes = onServiceOutcome((o) => {
      const id = o.profileId ?? useSessionStore.getState().activeId;
      if (id === null) return;
      reportConnection(
        id,
        o.ok
          ? { status: 'connected', checkedAt: Date.now() }
          : { status: 'failed', kind: o.error?.kind ?? 'Internal', message: o.error?.message ?? '' },
      );
    });
    void boot();
    return () => {
      offCommands();
      offOutcomes();
    };
  }, []);
}
