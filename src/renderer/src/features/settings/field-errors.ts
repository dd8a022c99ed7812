import type { BridgeError } from '@shared/ipc/errors';
import { describeIssue } from '@shared/spec/issues';

/** Field name → message; `''` holds problems that belong to no single field. */
export type FieldErrors = Partial<Record<string, string>>;

/** Puts each zod / spec issue next to its field; the rest become the form-level message. */
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
