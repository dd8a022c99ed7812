import { latestWins, type Turn } from './latest-wins';

/** One run of a cancellable series: a search from the click to its answer. */
export interface Run<T> {
  /** What the store keeps about the run while it waits (its request, whether it has been sent). */
  readonly info: T;
  /** Still the run whose answer the screen shows: nothing newer began and Cancel was not pressed since. */
  readonly current: boolean;
}

/**
 * Whose answer a run's answer is when it comes:
 * - `current`: the screen shows it;
 * - `cancelled`: Cancel stopped the wait and nothing newer began since, so the page may still say what the
 *   answer cost (a request that left is paid for, and its answer is kept rather than thrown away);
 * - `superseded`: a newer run (or a reset) owns the screen; the answer is not the page's to mention.
 */
export type RunEnd = 'current' | 'cancelled' | 'superseded';

/**
 * A run with Cancel: the shipment search and the firm search share it. A request already sent is never
 * aborted (the service may charge it whether or not its answer is read); Cancel stops the waiting, and
 * the late answer is then described, not shown.
 *
 *   const runs = cancellableRuns<{ sent: boolean }>();
 *   const run = runs.begin({ sent: false });
 *   const r = await getApi().shipments.search(…);
 *   switch (runs.settle(run)) { case 'current': show(r); break; case 'cancelled': describe(r); }
 */
export interface CancellableRuns<T> {
  /** Starts a run; every run before it is superseded. */
  begin(info: T): Run<T>;
  /** The run waiting for its answer, if any. */
  running(): Run<T> | null;
  /**
   * Stops waiting for the run in flight and returns it (null when none waits). Its answer then ends
   * `cancelled` until another run begins, and nothing begun before it is current any more.
   */
  cancel(): Run<T> | null;
  /** The run's answer came, or the run ended without one: it waits no more, and this says whose it is. */
  settle(run: Run<T>): RunEnd;
  /** Every run so far is superseded (a reset, another session). */
  supersede(): void;
}

export function cancellableRuns<T>(): CancellableRuns<T> {
  const turns = latestWins();
  const turnOf = new WeakMap<Run<T>, Turn>();
  /** The turn Cancel took for a run: while it is current, nothing newer owns the screen. */
  const cancelTurnOf = new WeakMap<Run<T>, Turn>();
  let waiting: Run<T> | null = null;
  return {
    begin(info) {
      const turn = turns.begin();
      const run: Run<T> = {
        info,
        get current() {
          return turn.current;
        },
      };
      turnOf.set(run, turn);
      waiting = run;
      return run;
    },
    running: () => waiting,
    cancel() {
      const run = waiting;
      waiting = null;
      const turn = turns.begin();
      if (run) cancelTurnOf.set(run, turn);
      return run;
    },
    settle(run) {
      if (waiting === run) waiting = null;
      if (turnOf.get(run)?.current) return 'current';
      return cancelTurnOf.get(run)?.current ? 'cancelled' : 'superseded';
    },
    supersede() {
      turns.supersede();
      waiting = null;
    },
  };
}
