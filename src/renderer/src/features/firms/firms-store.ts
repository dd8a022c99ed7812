import { create } from 'zustand';
import type { FirmCountRequest, FirmSearchRequest, FirmSearchResponse } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { api } from '../../bridge/api';
import { currentFilter, validateCurrent } from '../filters/filter-store';
import { saveToLibrary } from '../search/library-boundary';
import { currentAccountContext, refreshUsage } from '../usage/usage-store';

export interface FirmsState {
  status: 'idle' | 'running' | 'done' | 'error';
  request: FirmSearchRequest | null;
  result: FirmSearchResponse | null;
  error: BridgeError | null;
  count: { status: 'idle' | 'running' | 'done' | 'error'; value: number | null; error: BridgeError | null; request: FirmCountRequest | null };
  /** Runs page 1 of the form's filter. */
  search(): Promise<void>;
  /** Another page of the same request as the last search (the form may have changed since). */
  goToPage(page: number): Promise<void>;
  countFirms(): Promise<void>;
}

let seq = 0;

const fmtInt = (n: number) => n.toLocaleString('en-US');

/**
 * The page-number field: what the user typed, judged against the pages the last answer reported.
 * A page past the end would cost a request for an empty answer, so it is refused at the field.
 */
export type PageJump = { ok: true; page: number; message: null } | { ok: false; message: string | null };

export function checkPageJump(text: string, pages: number): PageJump {
  const t = text.trim();
  if (t === '') return { ok: false, message: null };
  const n = Number(t);
  if (!Number.isInteger(n)) return { ok: false, message: 'Page: a whole number' };
  const last = Math.max(1, pages);
  if (n < 1 || n > last) return { ok: false, message: `Page: between 1 and ${fmtInt(last)}` };
  return { ok: true, page: n, message: null };
}

export const useFirmsStore = create<FirmsState>()((set, get) => {
  async function fetchPage(request: FirmSearchRequest) {
    const mine = ++seq;
    set({ status: 'running', request, error: null });
    const r = await api.firms.search({ request });
    if (mine !== seq) return;
    if (r.ok) {
      set({ status: 'done', result: r.value });
      await saveToLibrary('firms.search', request, r.value);
    } else set({ status: 'error', error: r.error });
    void refreshUsage();
  }
  return {
    status: 'idle',
    request: null,
    result: null,
    error: null,
    count: { status: 'idle', value: null, error: null, request: null },
    async search() {
      if (!validateCurrent('firmSearch', { page: 1, ...currentAccountContext() }).valid) return;
      await fetchPage({ ...currentFilter(), page: 1 });
    },
    async goToPage(page) {
      const last = get().request;
      const pages = get().result?.total_pages ?? 1;
      if (!last || !Number.isInteger(page) || page < 1 || page > Math.max(1, pages)) return;
      await fetchPage({ ...last, page });
    },
    async countFirms() {
      if (!validateCurrent('firmCount', currentAccountContext()).valid) return;
      const request = currentFilter();
      set({ count: { status: 'running', value: null, error: null, request } });
      const r = await api.firms.count({ request });
      if (r.ok) {
        set({ count: { status: 'done', value: r.value.firm_count, error: null, request } });
        await saveToLibrary('firms.count', request, r.value);
      } else set({ count: { status: 'error', value: null, error: r.error, request } });
      void refreshUsage();
    },
  };
});
