import type { UsageChanged, UsageReading } from '@shared/query/query-contract';
import type { UsageSummary } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { getApi } from '../bridge/api';
import { defineStore, latestWins } from '../store';
import { selectActiveProfile, useSessionStore } from './session-store';

export interface UsageData {
  summary: UsageSummary | null;
  /** The profile `summary` was read for; a summary is never shown for another profile. */
  profileId: string | null;
  error: BridgeError | null;
  loading: boolean;
  /** When the window last received figures (a read, or main's after a search): puts the poll off. */
  receivedAt: number | null;
  /** When the service itself was read for the figures shown (main's clock, epoch ms). */
  readAt: number | null;
  /** From when a read reaches the service again; before it main answers from the figures it keeps. */
  nextReadAt: number | null;
}

export interface UsageActions {
  /** Reads the usage summary again; defaults to the active profile. */
  refresh(profileId?: string): Promise<void>;
  /** Reads it once if nothing is known yet for the active profile (a page that shows costs opened). */
  ensureLoaded(): Promise<void>;
  /**
   * Another profile became active (Settings → Use this profile, or the demo): its figures replace the
   * old ones at once. Until they arrive the cost preview says "not known yet" instead of showing the
   * previous profile's numbers, and a refresh still running for the old profile is dropped.
   */
  activeProfileChanged(activeId: string | null): void;
  /** Main says a profile's usage changed: only the active profile's figures are kept here. */
  usageChanged(change: UsageChanged): void;
}

const initialState: UsageData = {
  summary: null,
  profileId: null,
  error: null,
  loading: false,
  receivedAt: null,
  readAt: null,
  nextReadAt: null,
};

/** What the store keeps of a reading from main. */
const received = (profileId: string | null, r: UsageReading): Partial<UsageData> => ({
  summary: r.usage,
  profileId,
  readAt: r.readAt,
  nextReadAt: r.nextReadAt,
  error: null,
  loading: false,
  receivedAt: Date.now(),
});

export const useUsageStore = defineStore<UsageData, UsageActions>(initialState, (set, get, { onReset }) => {
  const reads = latestWins();
  onReset(() => reads.supersede());
  return {
    async refresh(profileId) {
      const turn = reads.begin();
      const target = profileId ?? useSessionStore.getState().activeId;
      set({ loading: true });
      // The profile is named explicitly so an answer can never be filed under a profile it was not read for.
      const r = await getApi().usage.get(target ? { profileId: target } : {});
      if (!turn.current) return;
      set(r.ok ? received(target, r.value) : { error: r.error, loading: false });
    },
    async ensureLoaded() {
      if (get().summary || get().loading) return;
      await get().refresh();
    },
    usageChanged(change) {
      const { profileId } = change;
      if (profileId !== useSessionStore.getState().activeId) return;
      if (!change.usage) {
        void get().refresh(profileId);
        return;
      }
      // Newer than any read still on its way.
      reads.supersede();
      set(received(profileId, change));
    },
    activeProfileChanged(activeId) {
      reads.supersede();
      set({ ...initialState });
      if (activeId) void get().refresh(activeId);
    },
  };
});

/** Fetches the usage summary again. Defaults to the active profile. */
export const refreshUsage = (profileId?: string): Promise<void> =>
  useUsageStore.getState().refresh(profileId);

/**
 * Follows the active profile, and main's `usage.changed` (the one signal that usage moved: whatever
 * spent quota, in any page or job). Figures that come with the event are taken as they are; otherwise
 * they are read again. Called by the app (connectStores), never on import; returns the disconnect.
 */
export function connectUsageStore(): () => void {
  const offProfiles = useSessionStore.subscribe((s, prev) => {
    if (s.activeId !== prev.activeId) useUsageStore.getState().activeProfileChanged(s.activeId);
  });
  const offChanges = getApi().on('usage.changed', (c) => useUsageStore.getState().usageChanged(c));
  const offPoll = pollWhileActive();
  return () => {
    offProfiles();
    offChanges();
    offPoll();
  };
}

/**
 * How often the figures are asked for while the analyst uses the window. Main answers from the figures
 * it keeps (what it spent since its last read) until they are a minute old, so the service itself is
 * asked at most once a minute, and never while the window is hidden or in the background.
 */
export const USAGE_POLL_MS = 60_000;

/** The few parts of the window the poll reads (this layer is also compiled without the DOM's types). */
interface ActiveWindow {
  document: { visibilityState: string; hasFocus(): boolean };
  addEventListener(type: 'focus', listener: () => void): void;
  removeEventListener(type: 'focus', listener: () => void): void;
}

const theWindow = (): ActiveWindow | undefined => (globalThis as { window?: ActiveWindow }).window;

/** The window is in use: shown and focused. */
function windowActive(): boolean {
  const w = theWindow();
  return w !== undefined && w.document.visibilityState === 'visible' && w.document.hasFocus();
}

function pollWhileActive(): () => void {
  // Figures that came in since (a search's answer, the Usage page) put the read off: `fresh` is how recent counts.
  const refreshIfOlder = (fresh: number) => {
    const { receivedAt, loading, refresh } = useUsageStore.getState();
    if (loading || !useSessionStore.getState().activeId || !windowActive()) return;
    if (receivedAt !== null && Date.now() - receivedAt < fresh) return;
    void refresh();
  };
  const timer = setInterval(() => refreshIfOlder(USAGE_POLL_MS / 2), USAGE_POLL_MS);
  // Back to the window after a while away: figures older than a minute are read again at once.
  const refreshIfDue = () => refreshIfOlder(USAGE_POLL_MS);
  theWindow()?.addEventListener('focus', refreshIfDue);
  return () => {
    clearInterval(timer);
    theWindow()?.removeEventListener('focus', refreshIfDue);
  };
}

/** What a request's account is checked against: the accounts the service reported, and the profile's default. */
export interface AccountContext {
  /** The accounts of the usage summary; undefined while usage is not known. */
  accounts?: string[];
  /** The active profile's default account, sent by main when the filter names none. */
  defaultAccount?: string;
}

let lastContext: { key: string; context: AccountContext } | null = null;

/**
 * The same object while the accounts and the default account stay, so what pages derive from it can be
 * memoised: the usage news that comes with every answer changes the figures, not the accounts.
 */
function accountContextOf(summary: UsageSummary | null, defaultAccount: string | undefined): AccountContext {
  const d = defaultAccount?.trim();
  const accounts = summary ? Object.keys(summary) : undefined;
  const key = JSON.stringify([accounts ?? null, d ?? null]);
  if (lastContext?.key === key) return lastContext.context;
  const context = { ...(accounts ? { accounts } : {}), ...(d ? { defaultAccount: d } : {}) };
  lastContext = { key, context };
  return context;
}

/** For store actions: the account context right now. */
export function currentAccountContext(): AccountContext {
  return accountContextOf(
    useUsageStore.getState().summary,
    selectActiveProfile(useSessionStore.getState())?.accountName,
  );
}

/** For pages: the account context, re-rendered when usage or the active profile changes. */
export function useAccountContext(): AccountContext {
  const summary = useUsageStore((s) => s.summary);
  const defaultAccount = useSessionStore((s) => selectActiveProfile(s)?.accountName);
  return accountContextOf(summary, defaultAccount);
}
