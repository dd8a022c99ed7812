import type { BridgeError } from '@shared/ipc/errors';
import { describeIssue } from '@shared/spec/issues';

/** Field name → message; `''` holds problems that belong to no single field. */
export type FieldErrors = Partial<Record<string, string>>;

/** The profile and credentials forms' fields, as their labels name them. */
export const PROFILE_FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  baseUrl: 'Service address',
  accountName: 'Account name',
  apiKey: 'API key',
  apiSecret: 'API secret',
};

/**
 * A field's message as the analyst reads it, naming the field as its label does: "Service address: a
 * full http:// or https:// address"; a message that already says the label's words stands alone,
 * capitalised ("The API secret is required", not "API secret: the API secret is required").
 */
export function labelledMessage(label: string, message: string): string {
  if (message.toLowerCase().includes(label.toLowerCase())) {
    return message.charAt(0).toUpperCase() + message.slice(1);
  }
  return `${label}: ${message}`;
}

/** A field's message in the form's words (`Service address: …`), or nothing. */
export function fieldMessage(errors: FieldErrors, field: string): string | undefined {
  const message = errors[field];
  return message === undefined ? undefined : labelledMessage(PROFILE_FIELD_LABELS[field] ?? field, message);
}

/**
 * Puts each zod / spec issue next to its field; the rest (of no field the form shows, so only its
 * path can tell what it is about) become the form-level message.
 */
export function issuesToFieldErrors(error: BridgeError, fields: readonly string[]): FieldErrors {
  const out: FieldErrors = {};
  const general: string[] = [];
  for (const issue of error.issues ?? []) {
    const head = issue.path.split(/[.[]/)[0] ?? '';
    if (fields.includes(head)) out[head] ??= issue.message;
    else general.push(describeIssue(issue));
  }
  if (general.length > 0 || Object.keys(out).length === 0)
    out[''] = general.length > 0 ? general.join('; ') : error.message;
  return out;
}
