import type { ProfileView } from '@shared/profiles/profiles-contract';
import type { BridgeError } from '@shared/ipc/errors';
import type { UsageSummary } from '@shared/spec/usage';
import { credentialOrigin } from '@shared/profiles/profile-rules';
import { getApi } from '../../bridge/api';
import { useSessionStore } from '../../session';
import { defineStore } from '../../store';
import { issuesToFieldErrors, type FieldErrors } from './field-errors';
import { checkCredentialsDraft, checkProfileDraft, hasFieldErrors } from './profile-checks';

export interface ProfileDraft {
  name: string;
  baseUrl: string;
  accountName: string;
  /** Only on create; replaced later through the credentials form. */
  apiKey: string;
  apiSecret: string;
}
export type DraftField = keyof ProfileDraft;

export interface CredentialsDraft {
  apiKey: string;
  apiSecret: string;
}

export type Editor = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; id: string };

export type TestState =
  | { status: 'running' }
  | { status: 'passed'; usage: UsageSummary; at: number }
  | { status: 'failed'; error: BridgeError; at: number };

export type { FieldErrors };

const EMPTY_DRAFT: ProfileDraft = {
  name: '',
  baseUrl: 'https://',
  accountName: '',
  apiKey: '',
  apiSecret: '',
};

const PROFILE_FIELDS: readonly DraftField[] = ['name', 'baseUrl', 'accountName', 'apiKey', 'apiSecret'];
const CREDENTIAL_FIELDS = ['apiKey', 'apiSecret'] as const;

export interface SettingsData {
  editor: Editor;
  draft: ProfileDraft;
  draftErrors: FieldErrors;
  saving: boolean;

  credentialsFor: string | null;
  /** Why the credentials are asked for, when main removed them (the profile moved to another server). */
  credentialsNotice: string | null;
  credentials: CredentialsDraft;
  credentialErrors: FieldErrors;
  savingCredentials: boolean;

  confirmDeleteId: string | null;
  deleting: boolean;
  deleteError: string | null;
  activeError: string | null;
  tests: Partial<Record<string, TestState>>;
}

export interface SettingsActions {
  openCreate(): void;
  openEdit(profile: ProfileView): void;
  closeEditor(): void;
  setDraftField(field: DraftField, value: string): void;
  saveProfile(): Promise<boolean>;

  openCredentials(id: string): void;
  closeCredentials(): void;
  setCredentialField(field: keyof CredentialsDraft, value: string): void;
  saveCredentials(): Promise<boolean>;

  askDelete(id: string): void;
  cancelDelete(): void;
  confirmDelete(): Promise<void>;
  setActive(id: string): Promise<void>;
  testConnection(id: string): Promise<void>;
}

export type SettingsState = SettingsData & SettingsActions;

const initialState: SettingsData = {
  editor: { mode: 'closed' },
  draft: EMPTY_DRAFT,
  draftErrors: {},
  saving: false,
  credentialsFor: null,
  credentialsNotice: null,
  credentials: { apiKey: '', apiSecret: '' },
  credentialErrors: {},
  savingCredentials: false,
  confirmDeleteId: null,
  deleting: false,
  deleteError: null,
  activeError: null,
  tests: {},
};

/** Whether a new base address is on another server than the profile's (its credentials would not go along). */
export function movesToAnotherServer(profile: Pick<ProfileView, 'baseUrl'>, baseUrl: string): boolean {
  const to = credentialOrigin(baseUrl);
  return to !== null && to !== credentialOrigin(profile.baseUrl);
}

export const useSettingsStore = defineStore<SettingsData, SettingsActions>(initialState, (set, get) => ({
  openCreate() {
    set({ editor: { mode: 'create' }, draft: EMPTY_DRAFT, draftErrors: {}, credentialsFor: null });
  },

  openEdit(p) {
    set({
      editor: { mode: 'edit', id: p.id },
      draft: { name: p.name, baseUrl: p.baseUrl, accountName: p.accountName, apiKey: '', apiSecret: '' },
      draftErrors: {},
      credentialsFor: null,
    });
  },

  closeEditor() {
    set({ editor: { mode: 'closed' }, draft: EMPTY_DRAFT, draftErrors: {} });
  },

  setDraftField(field, value) {
    set((s) => ({
      draft: { ...s.draft, [field]: value },
      draftErrors: { ...s.draftErrors, [field]: undefined },
    }));
  },

  async saveProfile() {
    const { editor, draft } = get();
    if (editor.mode === 'closed') return false;
    const local = checkProfileDraft(draft, editor, useSessionStore.getState().profiles);
    if (hasFieldErrors(local)) {
      set({ draftErrors: local });
      return false;
    }
    set({ saving: true, draftErrors: {} });
    const result =
      editor.mode === 'create'
        ? await getApi().profiles.create({
            name: draft.name,
            baseUrl: draft.baseUrl,
            accountName: draft.accountName,
            // Both or neither: a key without its secret cannot sign anything.
            ...(draft.apiKey !== '' || draft.apiSecret !== ''
              ? { apiKey: draft.apiKey, apiSecret: draft.apiSecret }
              : {}),
          })
        : await getApi().profiles.update({
            id: editor.id,
            name: draft.name,
            baseUrl: draft.baseUrl,
            accountName: draft.accountName,
          });
    if (!result.ok) {
      set({ saving: false, draftErrors: issuesToFieldErrors(result.error, PROFILE_FIELDS) });
      return false;
    }
    const before = useSessionStore.getState().profiles.find((p) => p.id === result.value.id);
    useSessionStore.getState().upsertProfile(result.value);
    set({ saving: false, editor: { mode: 'closed' }, draft: EMPTY_DRAFT });
    // Main removes a moved profile's key and secret: they were saved for the old server. Ask for them.
    const moved = before !== undefined && movesToAnotherServer(before, result.value.baseUrl);
    if (moved && (before.hasSecret || before.apiKeyMasked !== null) && !result.value.hasSecret) {
      get().openCredentials(result.value.id);
      set({
        credentialsNotice: `The service address now points to another server (${credentialOrigin(result.value.baseUrl) ?? result.value.baseUrl}), so the API key and secret saved for the old one were removed. Enter them for this server.`,
      });
    }
    await useSessionStore.getState().refreshProfiles();
    return true;
  },

  openCredentials(id) {
    set({
      credentialsFor: id,
      credentialsNotice: null,
      credentials: { apiKey: '', apiSecret: '' },
      credentialErrors: {},
      editor: { mode: 'closed' },
    });
  },

  closeCredentials() {
    set({
      credentialsFor: null,
      credentialsNotice: null,
      credentials: { apiKey: '', apiSecret: '' },
      credentialErrors: {},
    });
  },

  setCredentialField(field, value) {
    set((s) => ({
      credentials: { ...s.credentials, [field]: value },
      credentialErrors: { ...s.credentialErrors, [field]: undefined },
    }));
  },

  async saveCredentials() {
    const { credentialsFor: id, credentials } = get();
    if (!id) return false;
    const local = checkCredentialsDraft(credentials);
    if (hasFieldErrors(local)) {
      set({ credentialErrors: local });
      return false;
    }
    set({ savingCredentials: true, credentialErrors: {} });
    const r = await getApi().profiles.setCredentials({
      id,
      apiKey: credentials.apiKey,
      apiSecret: credentials.apiSecret,
    });
    if (!r.ok) {
      set({ savingCredentials: false, credentialErrors: issuesToFieldErrors(r.error, CREDENTIAL_FIELDS) });
      return false;
    }
    useSessionStore.getState().upsertProfile(r.value);
    // The typed secret leaves renderer memory as soon as main has it.
    set({
      savingCredentials: false,
      credentialsFor: null,
      credentialsNotice: null,
      credentials: { apiKey: '', apiSecret: '' },
    });
    await useSessionStore.getState().refreshProfiles();
    return true;
  },

  askDelete(id) {
    set({ confirmDeleteId: id, deleteError: null });
  },

  cancelDelete() {
    if (get().deleting) return;
    set({ confirmDeleteId: null, deleteError: null });
  },

  async confirmDelete() {
    const { confirmDeleteId: id, deleting } = get();
    if (!id || deleting) return;
    set({ deleting: true, deleteError: null });
    const r = await getApi().profiles.delete({ id });
    if (!r.ok) {
      set({ deleting: false, deleteError: r.error.message });
      return;
    }
    set((s) => {
      const tests = { ...s.tests };
      delete tests[id];
      return {
        confirmDeleteId: null,
        deleting: false,
        tests,
        ...(s.editor.mode === 'edit' && s.editor.id === id ? { editor: { mode: 'closed' } as Editor } : {}),
        ...(s.credentialsFor === id ? { credentialsFor: null } : {}),
      };
    });
    useSessionStore.getState().applyProfiles(r.value);
  },

  async setActive(id) {
    set({ activeError: null });
    const r = await getApi().profiles.setActive({ id });
    if (!r.ok) {
      set({ activeError: r.error.message });
      return;
    }
    useSessionStore.getState().applyProfiles(r.value);
    const t = get().tests[id];
    if (t?.status === 'passed')
      useSessionStore.getState().reportConnection(id, { status: 'connected', checkedAt: t.at });
  },

  async testConnection(id) {
    set((s) => ({ tests: { ...s.tests, [id]: { status: 'running' } } }));
    const app = useSessionStore.getState();
    app.reportConnection(id, { status: 'checking' });
    const r = await getApi().profiles.testConnection({ id });
    const at = Date.now();
    const state: TestState = r.ok
      ? { status: 'passed', usage: r.value, at }
      : { status: 'failed', error: r.error, at };
    set((s) => ({ tests: { ...s.tests, [id]: state } }));
    app.reportConnection(
      id,
      r.ok
        ? { status: 'connected', checkedAt: at }
        : { status: 'failed', kind: r.error.kind, message: r.error.message },
    );
  },
}));
