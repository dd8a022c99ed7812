import { describe, expect, it } from 'vitest';
import { calls } from '@shared/ipc/contract';
import { toSpecIssues } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { issuesToFieldErrors } from '../../src/renderer/src/features/settings/field-errors';

const FIELDS = ['name', 'baseUrl', 'accountName', 'apiKey', 'apiSecret'];

/** The error the dispatcher returns for an input the channel's schema refuses. */
function invalidInput(input: unknown): BridgeError {
  const parsed = calls['profiles.create'].input.safeParse(input);
  if (parsed.success) throw new Error('expected the input to be refused');
  return { kind: 'InvalidInput', message: 'The input is not valid.', issues: toSpecIssues(parsed.error) };
}

describe('issuesToFieldErrors', () => {
  it('puts each schema issue at its field, with the schema’s own words', () => {
    const errors = issuesToFieldErrors(invalidInput({ name: ' ', baseUrl: 'ftp://x', apiKey: '' }), FIELDS);
    expect(errors.name).toBe('a name is required');
    expect(errors.baseUrl).toBe('a full http:// or https:// address');
    expect(errors.apiKey).toBe('the API key is required');
    expect(errors['']).toBeUndefined();
  });

  it('keeps issues of unknown fields as a form-level message', () => {
    const errors = issuesToFieldErrors(invalidInput({ name: 'a', baseUrl: 'https://a.b', extra: 1 }), FIELDS);
    expect(errors['']).toMatch(/extra|unrecognized/i);
  });

  it('shows the message of an error without issues at form level', () => {
    const errors = issuesToFieldErrors({ kind: 'KeychainUnavailable', message: 'No keychain.' }, FIELDS);
    expect(errors).toEqual({ '': 'No keychain.' });
  });
});
