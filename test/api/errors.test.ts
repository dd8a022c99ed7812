import { describe, expect, it } from 'vitest';
import { AppError } from '@shared/ipc/errors';
import { parseBaseUrl, parseRetryAfter, ServiceClientError, toBridgeError } from '../../src/main/api';
import { networkError, serviceError } from '../../src/main/api/errors';
import { registerSecret } from '../../src/main/log';
import { toBridgeResultError } from '../../src/main/handlers';

describe('toBridgeError', () => {
  it('carries kind, message, status, retryAfterSeconds and issues of a client error', () => {
    const e = new ServiceClientError('LimitExceeded', 'Download limit reached (429). Try again in 42 s.', {
      status: 429,
      retryAfterSeconds: 42,
    });
    expect(toBridgeError(e)).toEqual({
      kind: 'LimitExceeded',
      message: 'Download limit reached (429). Try again in 42 s.',
      status: 429,
      retryAfterSeconds: 42,
    });
    const inv = new ServiceClientError('InvalidRequest', 'bad', {
      issues: [{ path: 'size', message: 'at least 10' }],
    });
    expect(toBridgeError(inv)).toEqual({
      kind: 'InvalidRequest',
      message: 'bad',
      issues: [{ path: 'size', message: 'at least 10' }],
    });
  });

  it('forwards an AppError with its details', () => {
    expect(toBridgeError(new AppError('NotFound', 'No such profile.', { status: 404 }))).toEqual({
      kind: 'NotFound',
      message: 'No such profile.',
      status: 404,
    });
  });

  it('maps an AbortError to Cancelled', () => {
    const abort = new DOMException('This operation was aborted', 'AbortError');
    expect(toBridgeError(abort).kind).toBe('Cancelled');
  });

  it('maps anything else to Internal, redacting registered secrets from the message', () => {
    const secret = 'sk-errors-test-secret-55';
    const un = registerSecret(secret);
    try {
      const out = toBridgeError(new TypeError(`cannot read ${secret}`));
      expect(out.kind).toBe('Internal');
      expect(out.message).toContain('cannot read');
      expect(out.message).not.toContain(secret);
      expect(toBridgeError('plain string').kind).toBe('Internal');
      expect(toBridgeError(undefined)).toEqual({
        kind: 'Internal',
        message: 'Something went wrong inside Portolan.',
      });
    } finally {
      un();
    }
  });

  it('a client error is an AppError of its kind: one hierarchy, one conversion for the bridge', () => {
    const e = new ServiceClientError('NetworkError', 'Could not connect.', { reason: 'refused' });
    expect(e).toBeInstanceOf(AppError);
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'ServiceClientError', kind: 'NetworkError', reason: 'refused' });
    expect(e.details).toEqual({});
    const limit = new ServiceClientError('LimitExceeded', 'Wait.', { status: 429, retryAfterSeconds: 5 });
    expect(limit.details).toEqual({ status: 429, retryAfterSeconds: 5 });
    expect(toBridgeResultError(limit)).toEqual(toBridgeError(limit));
    expect(toBridgeResultError(new TypeError('internal detail')).message).not.toContain('internal detail');
  });

  it('a client error message is redacted when constructed', () => {
    const secret = 'sk-ctor-secret-0000';
    const un = registerSecret(secret);
    try {
      expect(new ServiceClientError('ServiceError', `echo ${secret}`).message).toBe('echo [REDACTED]');
    } finally {
      un();
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('42', now)).toBe(42);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0); // in the past
  });
  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('5.5', now)).toBeUndefined();
  });
});

describe('parseBaseUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com/'],
    ['https://api.example.com/', 'https://api.example.com/'],
    ['https://h.example/x', 'https://h.example/x/'],
    ['https://h.example/x/', 'https://h.example/x/'],
    ['  http://127.0.0.1:8080/base?q=1#frag ', 'http://127.0.0.1:8080/base/'],
  ])('%s → %s', (input, out) => {
    const r = parseBaseUrl(input);
    expect(r.ok && r.url.href).toBe(out);
  });
});

describe('serviceError advice', () => {
  it('names the place to look as Settings names it: "Service address" in "Connection profiles"', () => {
    for (const reason of ['refused', 'dns', 'other'] as const)
      expect(networkError(reason, 'api.example.com').message).toContain(
        'Check the service address in Settings → Connection profiles',
      );
  });

  it('points a 404 at the service address, not at the filter', () => {
    expect(serviceError(404, '', 1).message).toContain(
      'check the service address in Settings → Connection profiles',
    );
    expect(serviceError(404, '', 1).message).not.toContain('filter');
  });

  it('points other refusals at the filter and server errors at the service', () => {
    expect(serviceError(422, '', 1).message).toContain('check the filter values');
    expect(serviceError(503, '', 2).message).toBe(
      'The service is having trouble and did not answer (status 503 Service Unavailable, after 2 attempts). Try again in a few minutes.',
    );
  });

  it('gives the words of a JSON error body, never its keys and braces', () => {
    const m = serviceError(
      503,
      '{"error":"service_unavailable","message":"simulated server failure"}',
      4,
    ).message;
    expect(m).toContain('It said: “simulated server failure”.');
    expect(m).not.toMatch(/[{}"]|service_unavailable/);
    expect(
      serviceError(400, '{"error":{"code":"E12","message":"Date range too long."}}', 1).message,
    ).toContain('It said: “Date range too long”.');
    expect(serviceError(400, '{"error":"The size is out of range"}', 1).message).toContain(
      'It said: “The size is out of range”.',
    );
  });

  it('says nothing of a JSON body without words, and excerpts a body that is not JSON', () => {
    const m = serviceError(500, '{"error":"internal_error","code":17}', 1).message;
    expect(m).toMatch(/Try again in a few minutes\.$/);
    expect(serviceError(502, '<html>Bad gateway</html>', 1).message).toContain(
      'It said: “<html>Bad gateway</html>”.',
    );
  });
});
