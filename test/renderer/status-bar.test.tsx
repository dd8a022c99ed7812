import { describe, expect, it } from 'vitest';
import { describeConnection } from '../../src/renderer/src/app/status-bar';

describe('status bar: the connection in the analyst’s words', () => {
  it.each([
    ['NoCredentials', 'no API key and secret'],
    ['NetworkError', 'no connection to the service'],
    ['AuthRejected', 'sign-in refused'],
    ['StorageLocked', 'library in use'],
  ] as const)('%s is said as “%s”', (kind, words) => {
    expect(describeConnection({ status: 'failed', kind, message: 'detail' })).toBe(words);
  });

  it('never shows a kind name, and says the other states plainly', () => {
    expect(describeConnection({ status: 'failed', kind: 'NoSuchKind', message: 'x' })).toBe(
      'connection problem',
    );
    expect(describeConnection({ status: 'connected', checkedAt: 0 })).toBe('connected');
    expect(describeConnection({ status: 'unknown' })).toBe('not checked yet');
    const unavailable = { status: 'waiting', message: 'its gateway says it is unavailable' } as const;
    expect(describeConnection({ ...unavailable, retrying: true })).toBe(
      'service not answering — trying again…',
    );
    // Nothing asks any more (a refresh cancelled, a job stopped): no "trying again" that is not so.
    expect(describeConnection({ ...unavailable, retrying: false })).toBe('service not answering');
  });
});
