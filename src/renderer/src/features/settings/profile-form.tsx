import { useRef, type RefObject } from 'react';
import { Paper, Stack, Title, SimpleGrid } from '@mantine/core';
import { TextField } from '../../components/text-field';
import { useEnterSubmits } from '../../components/use-enter-submits';
import { useSessionStore } from '../../session';
import { fieldMessage } from './field-errors';
import { movesToAnotherServer, useSettingsStore } from './settings-store';
import { useInlineForm } from './use-inline-form';
import { FormFooter, KeySecretFields } from './form-parts';

/**
 * Create (above the list) or edit (in its card) a profile's metadata; on create the key and secret
 * may be given at once. Enter saves, Escape cancels, and the focus goes back to the button that
 * opened the form.
 */
export function ProfileForm({
  inCard = false,
  returnTo,
}: {
  inCard?: boolean;
  /** The page's New profile button: the focus goes there when a form opened from the menu closes. */
  returnTo?: RefObject<HTMLElement | null>;
}) {
  const editor = useSettingsStore((s) => s.editor);
  const draft = useSettingsStore((s) => s.draft);
  const errors = useSettingsStore((s) => s.draftErrors);
  const saving = useSettingsStore((s) => s.saving);
  const setField = useSettingsStore((s) => s.setDraftField);
  const save = useSettingsStore((s) => s.saveProfile);
  const close = useSettingsStore((s) => s.closeEditor);
  const saved = useSessionStore((s) =>
    editor.mode === 'edit' ? s.profiles.find((p) => p.id === editor.id) : undefined,
  );
  const ref = useRef<HTMLFormElement>(null);
  const enter = useEnterSubmits();
  useInlineForm(ref, editor.mode !== 'closed', close, returnTo);
  if (editor.mode === 'closed') return null;
  const losesCredentials =
    saved !== undefined && saved.hasSecret && movesToAnotherServer(saved, draft.baseUrl);
  const creating = editor.mode === 'create';
  return (
    <Paper
      component="form"
      ref={ref}
      {...enter}
      // Inside its profile's card the card is the frame.
      withBorder={!inCard}
      p={inCard ? 0 : 'md'}
      data-testid="profile-form"
      aria-labelledby="profile-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="md">
        <Title order={3} id="profile-form-title">
          {creating
            ? 'New connection profile'
            : inCard
              ? 'Edit profile'
              : `Edit “${saved?.name ?? draft.name}”`}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <TextField
            label="Name"
            value={draft.name}
            onChange={(v) => setField('name', v)}
            testId="profile-name"
            error={fieldMessage(errors, 'name')}
          />
          <TextField
            label="Account name (optional)"
            value={draft.accountName}
            onChange={(v) => setField('accountName', v)}
            testId="profile-account-name"
            error={fieldMessage(errors, 'accountName')}
            hint="The account searches use when they name none."
          />
        </SimpleGrid>
        <TextField
          label="Service address"
          type="url"
          value={draft.baseUrl}
          onChange={(v) => setField('baseUrl', v)}
          testId="profile-base-url"
          error={fieldMessage(errors, 'baseUrl')}
          hint={
            losesCredentials
              ? 'This is another server: the saved API key and secret stay with the old one and are removed. You will be asked for them again.'
              : 'The address of the Trade Shipment and Firm Query Service, e.g. https://api.example.com'
          }
        />
        {creating ? (
          <KeySecretFields
            testIdPrefix="profile"
            values={draft}
            errors={errors}
            onChange={setField}
            optional
            secretHint="Kept in the system keychain only; it is never shown again."
          />
        ) : null}
        <FormFooter
          error={errors['']}
          saving={saving}
          saveLabel={creating ? 'Create profile' : 'Save changes'}
          onCancel={close}
          testIds={{ error: 'profile-form-error', cancel: 'profile-cancel', save: 'profile-save' }}
        />
      </Stack>
    </Paper>
  );
}
