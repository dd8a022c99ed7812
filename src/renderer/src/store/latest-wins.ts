/** One call of a series: whether it is still the one whose answer counts. */
export interface Turn {
  /** False once a newer call began or the series was superseded: its answer is then ignored. */
  readonly current: boolean;
}

/**
 * Latest answer wins: the renderer's one way to ignore stale answers. Each call takes a turn before it
 * awaits the bridge; when the answer comes, it is applied only if the turn is still current, so a slow
 * earlier answer never overwrites a newer one.
 *
 *   const lists = latestWins();
 *   const turn = lists.begin();
 *   const r = await getApi().library.list(query);
 *   if (!turn.current) return;
 */
export interface LatestWins {
  begin(): Turn;
  /** Makes every call begun so far stale (a cancel, a close, another profile). */
  supersede(): void;
}

export function latestWins(): LatestWins {
  let seq = 0;
  return {
    begin() {
      const mine = ++seq;
      return {
        get current() {
          return mine === seq;
        },
      };
    },
    supersede() {
      seq += 1;
    },
  };
}
