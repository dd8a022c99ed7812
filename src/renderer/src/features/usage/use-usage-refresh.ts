import { useEffect, useState } from 'react';
import { refreshUsage, useUsageStore } from '../../session';

export interface UsageRefresh {
  /** When the service was read for the figures shown; null before any figures arrived. */
  readAt: number | null;
  /** While a Refresh would not reach the service: from when it will. Null when it would now. */
  waitUntil: number | null;
  loading: boolean;
  /** Reads the figures again; nothing while `waitUntil` is set (main would answer with the same read). */
  refresh(): void;
}

/**
 * The Usage page's Refresh. Main asks the service at most once a minute and answers from the figures it
 * keeps in between, so a Refresh inside that minute would bring back the same read: it waits, and says
 * until when. Re-renders when the next read becomes possible.
 */
export function useUsageRefresh(): UsageRefresh {
  const readAt = useUsageStore((s) => s.readAt);
  const nextReadAt = useUsageStore((s) => s.nextReadAt);
  const loading = useUsageStore((s) => s.loading);
  // The `nextReadAt` whose time has come (the timer below says so).
  const [passed, setPassed] = useState<number | null>(null);
  useEffect(() => {
    if (nextReadAt === null) return;
    const timer = setTimeout(() => setPassed(nextReadAt), Math.max(0, nextReadAt - Date.now()));
    return () => clearTimeout(timer);
  }, [nextReadAt]);
  const waitUntil = nextReadAt !== null && passed !== nextReadAt ? nextReadAt : null;
  return {
    readAt,
    waitUntil,
    loading,
    refresh: () => {
      if (waitUntil === null) void refreshUsage();
    },
  };
}
