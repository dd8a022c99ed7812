import { useEffect } from 'react';
import { Button, Group, Loader, Paper, Text, Title, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { ErrorMessage } from '../../components/error-message';
import { Page, PageHeader } from '../../components/page';
import { UsageTable } from '../../components/usage-table';
import { refreshUsage, useUsageStore } from '../../session';
import { useUsageRefresh } from './use-usage-refresh';

const clock = (t: number) => new Date(t).toLocaleTimeString();
const slug = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-');

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
      {!summary && !error && (
        // The first read: said, rather than an empty page under the header.
        <Group gap="sm" data-testid="usage-loading" aria-live="polite">
          <Loader size="xs" />
          <Text c="dimmed">Reading the usage of this profile's accounts…</Text>
        </Group>
      )}
      {summary && Object.keys(summary).length === 0 && (
        <Text c="dimmed">The service reported no accounts.</Text>
      )}
      {summary &&
        Object.entries(summary).map(([account, metrics]) => (
          <Paper key={account} p="md" data-testid={`usage-account-${slug(account)}`}>
            <Title order={2} mb="sm">
              Account: {account}
            </Title>
            <UsageTable account={account} metrics={metrics} testIdPrefix="usage" />
          </Paper>
        ))}
    </Page>
  );
}
