import type { AppInfo } from '@shared/app/app-contract';
import type { KeychainProblem, ProfilesState, ProfileView } from '@shared/profiles/profiles-contract';
import type { BridgeError } from '@shared/ipc/errors';
import { getApi } from '../bridge/api';
import { defineStore } from '../store';
import type { PageId } from './pages';
import type { ServiceOutcome } from '../bridge/service-outcomes';

export type ConnectionState =
  | { status: 'unknown' }
  | { status: 'checking' }
  | { status: 'connected'; checkedAt: number }
  /**
   * The service's gateway answers that the service is unavailable (main's news, at its first such
   * answer): Portolan asks again until an answer comes (`retrying`; false once nothing has asked for a
   * while), and main's news of that answer ends it.
   */
  | { status: 'waiting'; message: string; retrying: boolean }
  | {
      status: 'failed';
      kind: string;
      message: string;
      /**
       * A refusal that ends by itself (a 429 with the service's wait): when it ends (epoch ms). Then
       * the service has answered and may be asked again, so the status bar goes back to connected.
       */
      until?: number;
    };

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
  keychainProblem: KeychainProblem | null;
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
  /**
   * A page's service call came back: its outcome tells the status bar whether the connection works,
   * except that a success does not clear "no connection to the service" or "service not answering"
   * (see the implementation).
   */
  reportCallOutcome(profileId: string, outcome: ConnectionState): void;
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

/**
 * A failure the status bar shows that is about the active profile's credentials: "no API key and secret"
 * or "sign-in refused". Once the analyst saves the profile or its key and secret, it says something no
 * longer known, so the connection goes back to "not checked yet" (checking would spend a request) until
 * the next call tells.
 */
function aboutCredentials(connection: ConnectionState): boolean {
  return (
    connection.status === 'failed' &&
    (connection.kind === 'NoCredentials' || connection.kind === 'AuthRejected')
  );
}

/** Whether main's list shows the profile changed (a key stored or replaced, a new address). */
function changed(before: ProfileView | undefined, after: ProfileView | undefined): boolean {
  if (!after) return false;
  return (
    before === undefined ||
    before.apiKeyMasked !== after.apiKeyMasked ||
    before.hasSecret !== after.hasSecret ||
    before.baseUrl !== after.baseUrl
  );
}

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
    const prev = get();
    const active = state.profiles.find((p) => p.id === state.activeId);
    const before = prev.profiles.find((p) => p.id === state.activeId);
    set({
      profiles: state.profiles,
      activeId: state.activeId,
      keychainProblem: state.keychainProblem,
      // A different active profile has not been checked yet; nor have new credentials of this one.
      ...(prev.activeId !== state.activeId || (aboutCredentials(prev.connection) && changed(before, active))
        ? { connection: { status: 'unknown' } as ConnectionState }
        : {}),
    });
  },

  async refreshProfiles() {
    const r = await getApi().profiles.list();
    if (r.ok) get().applyProfiles(r.value);
  },

  upsertProfile(view) {
    set((s) => {
      const i = s.profiles.findIndex((p) => p.id === view.id);
      // The analyst saved this profile (or its key and secret, which its view may not show).
      const outdated = view.id === s.activeId && aboutCredentials(s.connection);
      return {
        profiles: i < 0 ? [...s.profiles, view] : s.profiles.map((p) => (p.id === view.id ? view : p)),
        ...(outdated ? { connection: { status: 'unknown' } as ConnectionState } : {}),
      };
    });
  },

  reportConnection(profileId, outcome) {
    if (profileId !== get().activeId) return;
    set({ connection: outcome });
    if (outcome.status === 'failed' && outcome.until !== undefined) {
      setTimeout(
        () => {
          // Only this refusal ends: anything said since (another failure, a success) stands.
          if (get().connection === outcome)
            set({ connection: { status: 'connected', checkedAt: Date.now() } });
        },
        Math.max(0, outcome.until - Date.now()),
      );
    }
  },

  reportCallOutcome(profileId, outcome) {
    // A call main answered from what it keeps (the usage figures, read from the service at most once a
    // minute) succeeds without reaching the service. Once the service was found unreachable, or its
    // gateway said it is unavailable, only main's own news (service.connection: a request that reached
    // it, or its probe) says it is back.
    const now = get().connection;
    const away = now.status === 'waiting' || (now.status === 'failed' && now.kind === 'NetworkError');
    if (outcome.status === 'connected' && away) return;
    get().reportConnection(profileId, outcome);
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

/**
 * A page's call as the status bar's connection. A limit the service says to wait out (its Retry-After)
 * ends by itself: said until then, not for the rest of the session.
 */
export function callOutcome(o: ServiceOutcome, now = Date.now()): ConnectionState {
  if (o.ok) return { status: 'connected', checkedAt: now };
  const e = o.error;
  const wait = e?.kind === 'LimitExceeded' ? e.retryAfterSeconds : undefined;
  return {
    status: 'failed',
    kind: e?.kind ?? 'Internal',
    message: e?.message ?? '',
    ...(wait !== undefined ? { until: now + wait * 1000 } : {}),
  };
}
