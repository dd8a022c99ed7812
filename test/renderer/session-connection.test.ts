import { beforeEach, describe, expect, it } from 'vitest';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import { useSessionStore } from '../../src/renderer/src/session';

const profile = (over: Partial<ProfileView> = {}): ProfileView => ({
  id: 'p1',
  name: 'Desk',
  baseUrl: 'https://api.example.com/',
  accountName: 'main',
  apiKeyMasked: null,
  hasSecret: false,
  demo: false,
  ...over,
});

const state = () => useSessionStore.getState();
const fail = (kind: string) =>
  state().reportConnection('p1', { status: 'failed', kind, message: `${kind} detail` });

describe('the status bar’s connection after the analyst saves credentials', () => {
  beforeEach(() => {
    state().reset();
    state().applyProfiles({ profiles: [profile()], activeId: 'p1', keychainProblem: null });
  });

  it('“no API key and secret” goes back to “not checked yet” once a key and secret are saved', () => {
    fail('NoCredentials');
    state().upsertProfile(profile({ apiKeyMasked: '••••3f9a', hasSecret: true }));
    expect(state().connection).toEqual({ status: 'unknown' });
  });

  it('“sign-in refused” goes too when the secret alone is replaced (the profile’s view shows no change)', () => {
    state().upsertProfile(profile({ apiKeyMasked: '••••3f9a', hasSecret: true }));
    fail('AuthRejected');
    state().upsertProfile(profile({ apiKeyMasked: '••••3f9a', hasSecret: true }));
    expect(state().connection).toEqual({ status: 'unknown' });
  });

  it('main’s list clears it only when the profile changed there', () => {
    fail('NoCredentials');
    state().applyProfiles({ profiles: [profile()], activeId: 'p1', keychainProblem: null });
    expect(state().connection.status).toBe('failed');
    state().applyProfiles({
      profiles: [profile({ apiKeyMasked: '••••3f9a', hasSecret: true })],
      activeId: 'p1',
      keychainProblem: null,
    });
    expect(state().connection).toEqual({ status: 'unknown' });
  });

  it('a failure that is not about credentials stays until a call says otherwise', () => {
    fail('NetworkError');
    state().upsertProfile(profile({ apiKeyMasked: '••••3f9a', hasSecret: true }));
    expect(state().connection).toMatchObject({ status: 'failed', kind: 'NetworkError' });
  });
});
