import type { z } from 'zod';
import {
  DUPLICATE_NAME_MESSAGE,
  isProfileNameTaken,
  profileFields,
  profileNameKey,
} from '@shared/profiles/profile-rules';
import type { FieldErrors } from './field-errors';

export interface ProfileDraftFields {
  name: string;
  baseUrl: string;
  accountName: string;
  apiKey: string;
  apiSecret: string;
}

interface NamedProfile {
  id: string;
  name: string;
}

function firstMessage(schema: z.ZodType, value: string): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

function put(errors: FieldErrors, field: string, message: string | undefined): void {
  if (message !== undefined) errors[field] = message;
}

/**
 * The same rules main applies (shared schemas), checked in the form so a bad address, a taken name or
 * a too-short credential is shown at its field before anything leaves the window. Empty when all pass.
 */
export function checkProfileDraft(
  draft: ProfileDraftFields,
  editing: { mode: 'create' } | { mode: 'edit'; id: string },
  profiles: readonly NamedProfile[],
): FieldErrors {
  const errors: FieldErrors = {};
  put(errors, 'name', firstMessage(profileFields.name, draft.name));
  const selfId = editing.mode === 'edit' ? editing.id : undefined;
  const ownName = profiles.find((p) => p.id === selfId)?.name;
  // Files from before names were unique may hold duplicates: keeping one's own name stays allowed, as in main.
  const renamed = ownName === undefined || profileNameKey(ownName) !== profileNameKey(draft.name);
  if (errors.name === undefined && renamed && isProfileNameTaken(draft.name, profiles, selfId)) {
    errors.name = DUPLICATE_NAME_MESSAGE;
  }
  put(errors, 'baseUrl', firstMessage(profileFields.baseUrl, draft.baseUrl));
  if (editing.mode === 'create' && (draft.apiKey !== '' || draft.apiSecret !== '')) {
    put(errors, 'apiKey', firstMessage(profileFields.apiKey, draft.apiKey));
    put(errors, 'apiSecret', firstMessage(profileFields.apiSecret, draft.apiSecret));
  }
  return errors;
}

/** The credentials form's fields, by the rules main applies to `profiles.setCredentials`. */
export function checkCredentialsDraft(draft: { apiKey: string; apiSecret: string }): FieldErrors {
  const errors: FieldErrors = {};
  put(errors, 'apiKey', firstMessage(profileFields.apiKey, draft.apiKey));
  put(errors, 'apiSecret', firstMessage(profileFields.apiSecret, draft.apiSecret));
  return errors;
}

export const hasFieldErrors = (errors: FieldErrors): boolean =>
  Object.values(errors).some((m) => m !== undefined);
