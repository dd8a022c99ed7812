import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import { callOutcome, useSessionStore } from '../../src/renderer/src/session';

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

describe('the status bar’s connection after a page’s call', () => {
  beforeEach(() => {
    state().reset();
    state().applyProfiles({ profiles: [profile()], activeId: 'p1', keychainProblem: null });
  });
  const answered = () => state().reportCallOutcome('p1', { status: 'connected', checkedAt: Date.now() });

  it('a call that succeeds says the connection works', () => {
    answered();
    expect(state().connection.status).toBe('connected');
    fail('AuthRejected');
    answered();
    expect(state().connection.status).toBe('connected');
  });

  it('“no connection to the service” stays through a call main answered without the service, until main finds it back', () => {
    fail('NetworkError');
    // The Usage page's figures, kept by main for a minute: no request reached the service.
    answered();
    expect(state().connection).toMatchObject({ status: 'failed', kind: 'NetworkError' });
    // A request that reached it, or main's probe (service.connection).
    state().reportConnection('p1', { status: 'connected', checkedAt: Date.now() });
    expect(state().connection.status).toBe('connected');
  });

  it('“service not answering” stays through a call main answered without the service, until main hears an answer', () => {
    answered();
    // main's news at a gateway's first 503 (service.connection), while the client or a job asks again.
    const waiting = {
      status: 'waiting',
      message: 'its gateway says it is unavailable',
      retrying: true,
    } as const;
    state().reportConnection('p1', waiting);
    answered();
    expect(state().connection).toEqual(waiting);
    state().reportConnection('p1', { status: 'connected', checkedAt: Date.now() });
    expect(state().connection.status).toBe('connected');
  });

  it('a call that fails says so, whatever was shown before', () => {
    answered();
    state().reportCallOutcome('p1', { status: 'failed', kind: 'NetworkError', message: 'refused' });
    expect(state().connection).toMatchObject({ status: 'failed', kind: 'NetworkError' });
  });

  describe('a limit the service says to wait out', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());
    const limited = (retryAfterSeconds?: number) =>
      callOutcome({
        profileId: 'p1',
        ok: false,
        error: {
          kind: 'LimitExceeded',
          message: 'Request limit reached for account main (429).',
          status: 429,
          ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        },
      });

    it('says “limit reached” for the wait, then that the service may be asked again', () => {
      answered();
      state().reportCallOutcome('p1', limited(30));
      expect(state().connection).toMatchObject({ status: 'failed', kind: 'LimitExceeded' });
      vi.advanceTimersByTime(29_000);
      expect(state().connection).toMatchObject({ status: 'failed', kind: 'LimitExceeded' });
      vi.advanceTimersByTime(1_000);
      expect(state().connection.status).toBe('connected');
    });

    it('a used-up quota (no wait) stays, and a later failure is not cleared by the earlier wait', () => {
      state().reportCallOutcome('p1', limited());
      vi.advanceTimersByTime(3_600_000);
      expect(state().connection).toMatchObject({ status: 'failed', kind: 'LimitExceeded' });
      state().reportCallOutcome('p1', limited(5));
      state().reportCallOutcome('p1', { status: 'failed', kind: 'ServiceError', message: '503' });
      vi.advanceTimersByTime(10_000);
      expect(state().connection).toMatchObject({ status: 'failed', kind: 'ServiceError' });
    });
  });
});
