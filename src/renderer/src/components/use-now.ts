import { useEffect, useState } from 'react';

/** The clock, re-read every second while `ticking`: a countdown needs a render per second, not per event. */
export function useNow(ticking: boolean): number {
  return useClock(() => ticking);
}

/**
 * Milliseconds left until `at` (epoch ms), counted down once a second, and 0 once it has passed (or
 * when `at` is null): the clock stops then, so a wait that is over costs no renders.
 */
export function useMsUntil(at: number | null): number {
  const now = useClock((t) => at !== null && t < at);
  return at === null ? 0 : Math.max(0, at - now);
}

/** The clock as state, re-read every second while `ticksAt` says so of the time it last read. */
function useClock(ticksAt: (now: number) => boolean): number {
  const [now, setNow] = useState(() => Date.now());
  const ticking = ticksAt(now);
  useEffect(() => {
    if (!ticking) return undefined;
    const t = setInterval(() => setNow(Date.now()), 1000);
    // The clock may have stood still since the last render: re-read it at once, not a second late.
    const first = setTimeout(() => setNow(Date.now()), 0);
    return () => {
      clearTimeout(first);
      clearInterval(t);
    };
  }, [ticking]);
  return now;
}
