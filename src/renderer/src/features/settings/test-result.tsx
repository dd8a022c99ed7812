import { Alert, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { UsageSummary } from '@shared/spec/usage';
import { ErrorMessage } from '../../components/error-message';
import { UsageTable } from '../../components/usage-table';
import type { TestState } from './settings-store';

const ICON = { size: 16, stroke: 1.6 } as const;

/** Each account's figures in the Usage page's table: the same data, the same look. */
function UsageTables({ usage }: { usage: UsageSummary }) {
  const accounts = Object.keys(usage);
  if (accounts.length === 0) return <Text c="dimmed">Connected, but the service reported no accounts.</Text>;
  return (
    <Stack gap="md">
      {accounts.map((account) => (
        <div key={account} data-testid="test-result-account" data-account={account}>
          <Title order={3} mb={4}>
            Account: {account}
          </Title>
          <UsageTable account={account} metrics={usage[account] ?? {}} testIdPrefix="test-result" />
        </div>
      ))}
    </Stack>
  );
}

/**
 * The profile's default account is sent with every request that names none; a name the service did
 * not report would make every such search fail with 400, so the test says so now.
 */
export function defaultAccountWarning(usage: UsageSummary, accountName: string | undefined): string | null {
  const name = accountName?.trim();
  const accounts = Object.keys(usage);
  if (!name || accounts.includes(name)) return null;
  return `The profile's default account “${name}” is not among the accounts the service reported (${accounts.length ? accounts.join(', ') : 'none'}). Searches that name no account would be refused: edit the profile and choose one of these.`;
}

/** `accountName`: the profile's default account, checked against the accounts the service reports. */
export function TestResult({ state, accountName }: { state: TestState | undefined; accountName?: string }) {
  if (!state) return null;
  if (state.status === 'running') {
    return (
      <Group gap="sm" data-testid="test-result" data-status="running" aria-live="polite">
        <Loader size="xs" />
        <Text c="dimmed">Testing connection…</Text>
      </Group>
    );
  }
  if (state.status === 'failed') {
    return (
      <div data-testid="test-result" data-status="failed" aria-live="polite">
        <ErrorMessage error={state.error} testId="test-result-error" />
      </div>
    );
  }
  const warning = defaultAccountWarning(state.usage, accountName);
  return (
    <Stack gap="sm" data-testid="test-result" data-status="passed" aria-live="polite">
      <Alert color="green" icon={<IconCircleCheck {...ICON} />} py="xs">
        Connection works. Usage and limits reported by the service:
      </Alert>
      {warning && (
        <Alert
          color="orange"
          icon={<IconAlertTriangle {...ICON} />}
          role="alert"
          py="xs"
          data-testid="test-result-account-warning"
        >
          {warning}
        </Alert>
      )}
      <UsageTables usage={state.usage} />
    </Stack>
  );
}
