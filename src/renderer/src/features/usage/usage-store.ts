import { create } from 'zustand';
import type { UsageSummary } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { api } from '../../bridge/api';

export interface UsageState {
  summary: UsageSummary | null;
  error: BridgeError | null;
  loading: boolean;
  refreshedAt: number | null;
}

export const useUsageStore = create<UsageState>()(() => ({ summary: null, error: null, loading: false, refreshedAt: null }));

let seq = 0;

/** Fetches the usage summary again; call after any operation that spends quota. */
export async function refreshUsage(profileId?: string): Promise<void> {
  const mine = ++seq;
  useUsageStore.setState({ loading: true });
  const r = await api.usage.get(profileId ? { profileId } : {});
  if (mine !== seq) return;
  useUsageStore.setState(
    r.ok
      ? { summary: r.value, error: null, loading: false, refreshedAt: Date.now() }
      : { error: r.error, loading: false },
  );
}
