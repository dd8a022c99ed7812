import { create } from 'zustand';
import type { UsageSummary } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { api } from '../bridge/api';
import { selectActiveProfile, useSessionStore } from './session-store';

export interface UsageState {
  summary: UsageSummary | null;
  /** The profile `summary` was read for; a summary is never shown for another profile. */
  profileId: string | null;
  error: BridgeError | null;
  loading: boolean;
  refreshedAt: number | null;
}

export const useUsageStore = create<UsageState>()(() => ({
  summary: null,
  profileId: null,
  error: null,
  loading: false,
  refreshedAt: null,
}));

let seq = 0;

/** Fetches the usage summary again; call after any operation that spends quota. Defaults to the active profile. */
export async function refreshUsage(profileId?: string): Promise<void> {
  const mine = ++seq;
  const target = profileId ?? useSessionStore.getState().activeId;
  useUsageStore.setState({ loading: true });
  // The profile is named explicitly so an answer can never be filed under a profile it was not read for.
  const r = await api.usage.get(target ? { profileId: target } : {});
  if (mine !== seq) return;
  useUsageStore.setState(
    r.ok
      ? { summary: r.value, profileId: target, error: null, loading: false, refreshedAt: Date.now() }
      : { error: r.error, loading: false },
  );
}

/**
 * Another profile became active (Settings → Use this profile, or the demo): its figures replace the
 * old ones at once. Until they arrive the cost preview says "not known yet" instead of showing the
 * previous profile's numbers, and a refresh still running for the old profile is dropped.
 */
function activeProfileChanged(activeId: string | null): void {
  seq++;
  useUsageStore.setState({ summary: null, profileId: null, error: null, loading: false, refreshedAt: null });
  if (activeId) void refreshUsage(activeId);
}

useSessionStore.subscribe((s, prev) => {
  if (s.activeId !== prev.activeId) activeProfileChanged(s.activeId);
});

/** What a request's account is checked against: the accounts the service reported, and the profile's default. */
export interface AccountContext {
  /** The accounts of the usage summary; undefined while usage is not known. */
  accounts?: string[];
  /** The active profile's default account, sent by main when the filter names none. */
  defaultAccount?: string;
}

function accountContextOf(summary: UsageSummary | null, defaultAccount: string | undefined): AccountContext {
  const d = defaultAccount?.trim();
  return { ...(summary ? { accounts: Object.keys(summary) } : {}), ...(d ? { defaultAccount: d } : {}) };
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
