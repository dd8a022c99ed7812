import type { AppInfo } from '@shared/app/app-contract';
import type { ProfilesState, ProfileView } from '@shared/profiles/profiles-contract';
import type { BridgeError } from '@shared/ipc/errors';
import { getApi } from '../bridge/api';
import { defineStore } from '../store';
import type { PageId } from './pages';

export type ConnectionState =
  | { status: 'unknown' }
  | { status: 'checking' }
  | { status: 'connected'; checkedAt: number }
  | { status: 'failed'; kind: string; message: string };

/** Whether the process behind the window answers (the browser host; Electron's main always does). */
export interface HostState {
  up: boolean;
  /** When it stopped answering (epoch ms), while it does not. */
  downSince: number | null;
}

export interface SessionData {
  page: PageId;
  booted: boolean;
  bootError: BridgeError | null;
  appInfo: AppInfo | null;
  profiles: ProfileView[];
  activeId: string | null;
  keychainProblem: string | null;
  /** The user chose "Connect your account" on the welcome screen. */
  welcomeDismissed: boolean;
  /** Of the active profile; set by connection tests and by features that reach the service. */
  connection: ConnectionState;
  demo: { starting: boolean; error: BridgeError | null };
  /** Edit Filter asked for the filter form's first field; the form takes it when it is on screen. */
  filterFocusPending: boolean;
  host: HostState;
}

export interface SessionActions {
  boot(): Promise<void>;
  navigate(page: PageId): void;
  /** A page chosen from the menu or a shortcut: it also leaves the welcome screen. */
  showPage(page: PageId): void;
  requestFilterFocus(): void;
  /** True once for each request: the filter form that takes it focuses its first field. */
  takeFilterFocus(): boolean;
  applyProfiles(state: ProfilesState): void;
  refreshProfiles(): Promise<void>;
  /** Puts a created or changed profile into the list at once, before the full list is re-read. */
  upsertProfile(view: ProfileView): void;
  reportConnection(profileId: string, outcome: ConnectionState): void;
  /** The transport's news of the host: down as soon as it stops answering, up when it is back. */
  reportHost(up: boolean): void;
  startDemo(): Promise<void>;
  connectAccount(): void;
}

export type SessionState = SessionData & SessionActions;

const initialState: SessionData = {
  page: 'search',
  booted: false,
  bootError: null,
  appInfo: null,
  profiles: [],
  activeId: null,
  keychainProblem: null,
  welcomeDismissed: false,
  connection: { status: 'unknown' },
  demo: { starting: false, error: null },
  filterFocusPending: false,
  host: { up: true, downSince: null },
};

/** Who is signed in where: the profiles, the active one and its connection, and the page shown. */
export const useSessionStore = defineStore<SessionData, SessionActions>(initialState, (set, get) => ({
  async boot() {
    const [info, profiles] = await Promise.all([getApi().app.info(), getApi().profiles.list()]);
    if (info.ok) set({ appInfo: info.value });
    if (profiles.ok) get().applyProfiles(profiles.value);
    set({ booted: true, bootError: profiles.ok ? null : profiles.error });
  },

  navigate(page) {
    set({ page });
  },

  showPage(page) {
    set({ page, welcomeDismissed: true });
  },

  requestFilterFocus() {
    set({ filterFocusPending: true });
  },

  takeFilterFocus() {
    if (!get().filterFocusPending) return false;
    set({ filterFocusPending: false });
    return true;
  },

  applyProfiles(state) {
    const prevActive = get().activeId;
    set({
      profiles: state.profiles,
      activeId: state.activeId,
      keychainProblem: state.keychainProblem,
      // A different active profile has not been checked yet.
      ...(prevActive !== state.activeId ? { connection: { status: 'unknown' } as ConnectionState } : {}),
    });
  },

  async refreshProfiles() {
    const r = await getApi().profiles.list();
    if (r.ok) get().applyProfiles(r.value);
  },

  upsertProfile(view) {
    set((s) => {
      const i = s.profiles.findIndex((p) => p.id === view.id);
      return {
        profiles: i < 0 ? [...s.profiles, view] : s.profiles.map((p) => (p.id === view.id ? view : p)),
      };
    });
  },

  reportConnection(profileId, outcome) {
    if (profileId === get().activeId) set({ connection: outcome });
  },

  reportHost(up) {
    const was = get().host;
    if (was.up === up) return;
    set({ host: up ? { up: true, downSince: null } : { up: false, downSince: Date.now() } });
  },

  async startDemo() {
    set({ demo: { starting: true, error: null } });
    const r = await getApi().demo.start();
    if (!r.ok) {
      set({ demo: { starting: false, error: r.error } });
      return;
    }
    get().applyProfiles(r.value);
    set({ demo: { starting: false, error: null }, page: 'search', welcomeDismissed: true });
  },

  connectAccount() {
    set({ welcomeDismissed: true, page: 'settings' });
  },
}));

export const selectActiveProfile = (s: SessionState): ProfileView | null =>
  s.profiles.find((p) => p.id === s.activeId) ?? null;

export const selectShowWelcome = (s: SessionState): boolean =>
  s.booted && s.profiles.length === 0 && !s.welcomeDismissed;
