import { Alert, Group, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import {
  isUnlimited,
  metricLabel,
  NO_LIMIT,
  USAGE_METRICS,
  type MetricSummary,
  type UsageSummary,
} from '@shared/spec/usage';
import { ErrorMessage } from '../../components/error-message';
import type { TestState } from './settings-store';

const fmt = (n: number) => n.toLocaleString('en-US');
const ICON = { size: 16, stroke: 1.6 } as const;

function metricOrder(metrics: Record<string, MetricSummary>): string[] {
  const known = USAGE_METRICS.filter((m) => m in metrics);
  const extra = Object.keys(metrics).filter((m) => !(USAGE_METRICS as readonly string[]).includes(m));
  return [...known, ...extra.sort()];
}

function UsageTables({ usage }: { usage: UsageSummary }) {
  const accounts = Object.keys(usage);
  if (accounts.length === 0) return <Text c="dimmed">Connected, but the service reported no accounts.</Text>;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      {accounts.map((account) => {
        const metrics = usage[account] ?? {};
        return (
          <Table
            key={account}
            striped
            withTableBorder
            captionSide="top"
            data-testid="test-result-account"
            data-account={account}
          >
            <Table.Caption ta="left" mt={0} mb="xs">
              Account <strong>{account}</strong>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Metric</Table.Th>
                <Table.Th scope="col" ta="right">
                  Used
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Limit
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {metricOrder(metrics).map((name) => {
                const m = metrics[name] as MetricSummary;
                return (
                  <Table.Tr key={name} data-testid="test-result-metric" data-metric={name}>
                    <Table.Th scope="row" fw={400}>
                      {metricLabel(name)}
                    </Table.Th>
                    <Table.Td ta="right">{fmt(m.current)}</Table.Td>
                    <Table.Td ta="right">{isUnlimited(m) ? NO_LIMIT : fmt(m.limit)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        );
      })}
    </SimpleGrid>
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
