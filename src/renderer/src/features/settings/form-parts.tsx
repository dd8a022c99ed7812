import { Alert, Button, Group, SimpleGrid } from '@mantine/core';
import { TextField } from '../../components/text-field';
import { fieldMessage, type FieldErrors } from './field-errors';

export interface KeySecretFieldsProps {
  /** `profile-api-key` / `credentials-api-key`, …: the test ids of the form they are in. */
  testIdPrefix: 'profile' | 'credentials';
  values: { apiKey: string; apiSecret: string };
  errors: FieldErrors;
  onChange: (field: 'apiKey' | 'apiSecret', value: string) => void;
  /** On a new profile they may be left for later. */
  optional?: boolean;
  secretHint?: string;
}

/** The API key and secret, side by side, as password fields (never echoed, never autofilled). */
export function KeySecretFields({
  testIdPrefix,
  values,
  errors,
  onChange,
  optional = false,
  secretHint,
}: KeySecretFieldsProps) {
  const suffix = optional ? ' (optional now)' : '';
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      {(['apiKey', 'apiSecret'] as const).map((field) => (
        <TextField
          key={field}
          label={`${field === 'apiKey' ? 'API key' : 'API secret'}${suffix}`}
          type="password"
          value={values[field]}
          onChange={(v) => onChange(field, v)}
          testId={`${testIdPrefix}-${field === 'apiKey' ? 'api-key' : 'api-secret'}`}
          error={fieldMessage(errors, field)}
          {...(field === 'apiSecret' && secretHint ? { hint: secretHint } : {})}
        />
      ))}
    </SimpleGrid>
  );
}

export interface FormFooterProps {
  /** The form-level message (of no single field), if any. */
  error: string | undefined;
  saving: boolean;
  saveLabel: string;
  onCancel: () => void;
  testIds: { error: string; cancel: string; save: string };
}

/** A settings form's message of no single field, then Cancel and the form's one primary action, Save. */
export function FormFooter({ error, saving, saveLabel, onCancel, testIds }: FormFooterProps) {
  return (
    <>
      {error ? (
        <Alert color="red" role="alert" data-testid={testIds.error} py="xs">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} data-testid={testIds.cancel}>
          Cancel
        </Button>
        <Button type="submit" loading={saving} data-testid={testIds.save}>
          {saveLabel}
        </Button>
      </Group>
    </>
  );
}
