import type { BridgeError } from '@shared/ipc/errors';
import type { ReviewAction } from '@shared/app/app-contract';
import type { ResolutionStatus, ReviewPairView, Verdict } from '@shared/resolution/resolution-contract';
import { getApi } from '../../bridge/api';
import { useResolutionStore } from '../../session';
import { defineStore, latestWins } from '../../store';
import { runDecision, undoChange, type DecisionChange } from './decision-change';
import { useResolvedFirmsStore } from './resolved-firms-store';

/** How many pairs of the queue are held at once; the queue is read again as it empties. */
export const REVIEW_PAGE = 100;

export interface ReviewData {
  pairs: ReviewPairView[];
  /** Pairs in the whole queue (of the scope). */
  total: number | null;
  /** The pair shown, as an index into `pairs`. */
  index: number;
  loading: boolean;
  error: BridgeError | null;
  /** A verdict or an undo running. */
  deciding: boolean;
  decideError: BridgeError | null;
  /** The last verdict, offered for undo until the next one. */
  lastChange: DecisionChange | null;
}

export interface ReviewActions {
  /** Reads the queue from its start (of the Firms page's scope), keeping the pair shown where it can. */
  load(): Promise<void>;
  /** The next (1) or previous (-1) pair. */
  move(delta: number): void;
  select(index: number): void;
  /** The analyst's verdict on the pair shown: one firm (accept) or different firms (reject). */
  decide(verdict: Verdict): Promise<void>;
  undoLast(): Promise<void>;
}

export type ReviewState = ReviewData & ReviewActions;

const initialState: ReviewData = {
  pairs: [],
  total: null,
  index: 0,
  loading: false,
  error: null,
  deciding: false,
  decideError: null,
  lastChange: null,
};

const pairId = (p: ReviewPairView) => `${p.a.partyId}|${p.b.partyId}`;

/** The pair shown, if any. */
export const selectCurrentPair = (s: ReviewData): ReviewPairView | null => s.pairs[s.index] ?? null;

export const useReviewStore = defineStore<ReviewData, ReviewActions>(
  initialState,
  (set, get, { onReset }) => {
    const reads = latestWins();
    onReset(() => reads.supersede());

    async function decided(status: ResolutionStatus | null) {
      const before = useResolutionStore.getState().version;
      if (status) useResolutionStore.getState().changed(status);
      // The store follows the version (connectReviewStore); read here only when nothing was announced.
      if (useResolutionStore.getState().version === before) await get().load();
    }

    return {
      async load() {
        const { datasetId } = useResolvedFirmsStore.getState();
        const turn = reads.begin();
        const shown = selectCurrentPair(get());
        set({ loading: true, error: null });
        const r = await getApi().resolution.review({
          scope: datasetId ? { datasetId } : {},
          offset: 0,
          limit: REVIEW_PAGE,
        });
        if (!turn.current) return;
        if (!r.ok) {
          set({ loading: false, error: r.error });
          return;
        }
        const pairs = r.value.pairs;
        // The pair shown stays shown; one decided meanwhile gives way to the one that took its place.
        const kept = shown ? pairs.findIndex((p) => pairId(p) === pairId(shown)) : -1;
        const index = kept >= 0 ? kept : Math.min(get().index, Math.max(0, pairs.length - 1));
        set({ pairs, total: r.value.total, index, loading: false });
      },

      move(delta) {
        const { index, pairs } = get();
        const next = Math.min(Math.max(0, index + delta), Math.max(0, pairs.length - 1));
        if (next !== index) set({ index: next });
      },

      select(index) {
        if (index >= 0 && index < get().pairs.length) set({ index });
      },

      async decide(verdict) {
        const pair = selectCurrentPair(get());
        if (!pair || get().deciding) return;
        set({ deciding: true, decideError: null });
        const label =
          verdict === 'same'
            ? `“${pair.a.name}” and “${pair.b.name}” are one firm`
            : `“${pair.a.name}” and “${pair.b.name}” are different firms`;
        const r = await runDecision(label, () =>
          getApi().resolution.decide({ verdict, a: pair.a.partyId, b: pair.b.partyId }),
        );
        if (!r.ok) {
          set({ deciding: false, decideError: r.error });
          return;
        }
        // The decided pair leaves the queue at once; the queue is read again behind it.
        set((s) => ({
          deciding: false,
          lastChange: r.change,
          pairs: s.pairs.filter((p) => pairId(p) !== pairId(pair)),
          total: s.total === null ? null : Math.max(0, s.total - 1),
          index: Math.min(s.index, Math.max(0, s.pairs.length - 2)),
        }));
        await decided(r.status);
      },

      async undoLast() {
        const change = get().lastChange;
        if (!change || get().deciding) return;
        set({ deciding: true, decideError: null });
        const r = await undoChange(change);
        if (!r.ok) {
          set({ deciding: false, decideError: r.error });
          return;
        }
        set({ deciding: false, lastChange: null });
        await decided(r.status);
      },
    };
  },
);

/** Reads the queue again when main announces a new resolution. Called by the app. */
export function connectReviewStore(): () => void {
  // Only a queue that was read once follows; the Firms page reads it when it first shows it.
  const reload = () => {
    const review = useReviewStore.getState();
    if (review.total !== null) void review.load();
  };
  const offVersion = useResolutionStore.subscribe((s, prev) => {
    if (s.version !== prev.version) reload();
  });
  const offScope = useResolvedFirmsStore.subscribe((s, prev) => {
    if (s.datasetId !== prev.datasetId) reload();
  });
  return () => {
    offVersion();
    offScope();
  };
}

/** Does what a review key (or its menu item, or its palette entry) asks, on the pair shown. */
export function runReviewAction(action: ReviewAction): void {
  const s = useReviewStore.getState();
  if (action === 'same' || action === 'different') void s.decide(action);
  else if (action === 'next') s.move(1);
  else if (action === 'previous') s.move(-1);
  else void s.undoLast();
}
