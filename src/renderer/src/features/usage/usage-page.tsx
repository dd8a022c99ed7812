import { useEffect } from 'react';
import { Button, Code, Group, Paper, Progress, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import {
  USAGE_METRICS,
  isUnlimited,
  usedWithNoLimit,
  metricLabel,
  parseSearchedHsCodes,
  type MetricSummary,
} from '@shared/spec';
import { ErrorMessage } from '../../components/error-message';
import { Page, PageHeader } from '../../components/page';
import { refreshUsage, useUsageStore } from '../../session';
import { useUsageRefresh } from './use-usage-refresh';

const fmt = (n: number) => n.toLocaleString('en-US');
const clock = (t: number) => new Date(t).toLocaleTimeString();
const slug = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-');

/** The theme's warning colours: spent, nearly spent (80 %), else the primary colour. */
function meterColour(ratio: number): string {
  return ratio >= 1 ? 'red' : ratio >= 0.8 ? 'orange' : 'blue';
}

function MetricRow({ account, metric, m }: { account: string; metric: string; m: MetricSummary }) {
  const unlimited = isUnlimited(m);
  const ratio = unlimited || m.limit <= 0 ? 0 : Math.min(1, m.current / m.limit);
  const codes = metric === 'searchedHsCodes' ? parseSearchedHsCodes(m.notes) : [];
  const note = metric === 'searchedHsCodes' && codes.length === 0 && m.notes && m.notes !== 'unlimited';
  const id = `usage-${slug(account)}-${slug(metric)}`;
  const label = metricLabel(metric);
  return (
    <Table.Tr data-testid={id} data-current={m.current} data-limit={m.limit}>
      <Table.Th scope="row" fw={500}>
        {label}
        {codes.length > 0 && (
          <Group gap={4} mt={4} data-testid={`${id}-codes`} aria-label={`${label}: codes`}>
            {codes.map((c) => (
              <Code key={c}>{c}</Code>
            ))}
          </Group>
        )}
        {note && (
          <Text fz="xs" c="dimmed" mt={2}>
            {m.notes}
          </Text>
        )}
      </Table.Th>
      <Table.Td w={240}>
        {unlimited ? (
          <Text fz="sm" c="dimmed" data-testid={`${id}-unlimited`}>
            No limit
          </Text>
        ) : (
          <Progress
            value={ratio * 100}
            color={meterColour(ratio)}
            size="md"
            aria-label={`${label}: ${fmt(m.current)} of ${fmt(m.limit)} used`}
          />
        )}
      </Table.Td>
      <Table.Td data-testid={`${id}-text`} ta="right" style={{ whiteSpace: 'nowrap' }}>
        {unlimited
          ? usedWithNoLimit(m.current)
          : `${fmt(m.current)} / ${fmt(m.limit)}${m.limit > 0 ? ` (${fmt(Math.max(0, m.limit - m.current))} left)` : ''}`}
      </Table.Td>
    </Table.Tr>
  );
}

/** Every metric of every account of the active profile, with its limit. */
export function UsagePage() {
  const summary = useUsageStore((s) => s.summary);
  const error = useUsageStore((s) => s.error);
  const { readAt, waitUntil, loading, refresh } = useUsageRefresh();
  useEffect(() => {
    void refreshUsage();
  }, []);
  const why =
    waitUntil !== null && readAt !== null
      ? `Read from the service at ${clock(readAt)}. It is asked at most once a minute: the next read is possible at ${clock(waitUntil)}. What the app spends until then is counted here as its answers arrive.`
      : null;
  return (
    <Page testId="usage-page" narrow aria-labelledby="usage-title">
      <PageHeader
        title="Usage"
        titleId="usage-title"
        description={
          <span data-testid="usage-note">
            Read from the service at most once a minute (each read is a request it counts); what the app
            spends in between is counted as its answers arrive.
          </span>
        }
        actions={
          <>
            {readAt !== null && (
              <Text fz="sm" c="dimmed" data-testid="usage-read-at">
                Read from the service at {clock(readAt)}
              </Text>
            )}
            <Tooltip
              label={why}
              disabled={why === null}
              multiline
              w={320}
              events={{ hover: true, focus: true, touch: true }}
            >
              <Button
                variant="default"
                leftSection={<IconRefresh size={16} stroke={1.6} />}
                data-testid="usage-refresh"
                loading={loading}
                // Focusable while it waits, so its tooltip says why (a disabled button takes no focus).
                data-disabled={why !== null || undefined}
                aria-disabled={why !== null || undefined}
                aria-description={why ?? undefined}
                data-next-read-at={waitUntil ?? undefined}
                onClick={refresh}
              >
                Refresh
              </Button>
            </Tooltip>
          </>
        }
      />
      {error && <ErrorMessage error={error} testId="usage-error" />}
      {summary && Object.keys(summary).length === 0 && (
        <Text c="dimmed">The service reported no accounts.</Text>
      )}
      {summary &&
        Object.entries(summary).map(([account, metrics]) => {
          // Known metrics in the spec's order, then whatever else the service reports.
          const names = [
            ...USAGE_METRICS.filter((m) => m in metrics),
            ...Object.keys(metrics).filter((m) => !(USAGE_METRICS as readonly string[]).includes(m)),
          ];
          return (
            <Paper key={account} p="md" data-testid={`usage-account-${slug(account)}`}>
              <Title order={2} mb="sm">
                Account: {account}
              </Title>
              <Table verticalSpacing="xs" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>What is counted</Table.Th>
                    <Table.Th>Spent</Table.Th>
                    <Table.Th ta="right">Used / limit</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {names.map((metric) => (
                    <MetricRow
                      key={metric}
                      account={account}
                      metric={metric}
                      m={metrics[metric] as MetricSummary}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Paper>
          );
        })}
    </Page>
  );
}
