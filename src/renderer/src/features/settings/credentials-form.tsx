import { useRef } from 'react';
import { Alert, Box, Divider, Stack, Text } from '@mantine/core';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import { useEnterSubmits } from '../../components/use-enter-submits';
import { FormFooter, KeySecretFields } from './form-parts';
import { useSettingsStore } from './settings-store';
import { useInlineForm } from './use-inline-form';

/**
 * Sets or replaces a profile's key and secret. Neither is ever read back: the inputs start empty.
 * Enter saves, Escape cancels, and the focus goes back to the button that opened the form.
 */
export function CredentialsForm({ profile }: { profile: ProfileView }) {
  const creds = useSettingsStore((s) => s.credentials);
  const errors = useSettingsStore((s) => s.credentialErrors);
  const saving = useSettingsStore((s) => s.savingCredentials);
  const setField = useSettingsStore((s) => s.setCredentialField);
  const save = useSettingsStore((s) => s.saveCredentials);
  const close = useSettingsStore((s) => s.closeCredentials);
  const notice = useSettingsStore((s) => s.credentialsNotice);
  const ref = useRef<HTMLFormElement>(null);
  useInlineForm(ref, true, close);
  const enter = useEnterSubmits();
  return (
    <Box
      component="form"
      ref={ref}
      {...enter}
      data-testid="credentials-form"
      aria-label={`API key and secret of ${profile.name}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Divider mb="md" />
      <Stack gap="md">
        {notice ? (
          <Alert color="orange" role="status" data-testid="credentials-notice" py="xs">
            {notice}
          </Alert>
        ) : (
          <Text c="dimmed">
            {profile.hasSecret
              ? 'Replace the stored key and secret. They are kept in the system keychain and never shown again.'
              : 'Enter the key and secret from the API tab of your account portal. They are kept in the system keychain and never shown again.'}
          </Text>
        )}
        <KeySecretFields testIdPrefix="credentials" values={creds} errors={errors} onChange={setField} />
        <FormFooter
          error={errors['']}
          saving={saving}
          saveLabel="Save to keychain"
          onCancel={close}
          testIds={{ error: 'credentials-error', cancel: 'credentials-cancel', save: 'credentials-save' }}
        />
      </Stack>
    </Box>
  );
}
