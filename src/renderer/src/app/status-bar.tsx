import { Box, Group, Text, UnstyledButton } from '@mantine/core';
import { errorHeading } from '../components/error-message';
import { JobsTrayButton } from '../features/jobs';
import { selectActiveProfile, useSessionStore, type ConnectionState } from '../session';

/**
 * A banner heading as the status bar's lower-case words: only its first letter is lowered, so an
 * acronym keeps its capitals ("No API key and secret" → "no API key and secret", not "no api key").
 */
function inLine(heading: string): string {
  return /^[A-Z]{2}/.test(heading) ? heading : heading.charAt(0).toLowerCase() + heading.slice(1);
}

/** The connection as the analyst reads it: never an internal kind name. */
export function describeConnection(c: ConnectionState): string {
  switch (c.status) {
    case 'unknown':
      return 'not checked yet';
    case 'checking':
      return 'checking…';
    case 'connected':
      return 'connected';
    case 'waiting':
      return c.retrying ? 'service not answering — trying again…' : 'service not answering';
    case 'failed': {
      const heading = errorHeading(c.kind as Parameters<typeof errorHeading>[0]);
      return heading ? inLine(heading) : 'connection problem';
    }
  }
}

const DOT: Record<ConnectionState['status'], string> = {
  unknown: 'var(--mantine-color-dimmed)',
  checking: 'var(--mantine-color-yellow-6)',
  connected: 'var(--mantine-color-green-6)',
  waiting: 'var(--mantine-color-orange-6)',
  failed: 'var(--mantine-color-red-6)',
};

/** Shown only while the process behind the window does not answer (the browser host stopped or froze). */
function HostStatus() {
  const up = useSessionStore((s) => s.host.up);
  if (up) return null;
  return (
    <Group gap={6} wrap="nowrap" data-testid="status-host" data-status="down" role="status">
      <Box w={8} h={8} style={{ borderRadius: '50%', background: DOT.failed }} aria-hidden />
      <Text fz="xs" span c="red">
        Portolan host not reachable — reconnecting…
      </Text>
    </Group>
  );
}

/** Along the bottom: the active profile and its connection, the host's, the jobs tray, the version. */
export function StatusBar() {
  const profile = useSessionStore(selectActiveProfile);
  const connection = useSessionStore((s) => s.connection);
  const info = useSessionStore((s) => s.appInfo);
  const navigate = useSessionStore((s) => s.navigate);
  // While the host is gone nothing is known of the service behind it.
  const hostUp = useSessionStore((s) => s.host.up);
  return (
    <Group
      component="footer"
      data-testid="status-bar"
      h="100%"
      px="sm"
      gap="md"
      wrap="nowrap"
      fz="xs"
      bg="var(--portolan-surface-muted)"
    >
      <UnstyledButton
        fz="xs"
        onClick={() => navigate('settings')}
        data-testid="status-profile"
        title="Connection profiles (Settings)"
      >
        {profile ? (
          <>
            Profile: <strong>{profile.name}</strong>
            {profile.demo ? ' (demo)' : ''}
          </>
        ) : (
          'No active profile'
        )}
      </UnstyledButton>
      {profile && hostUp ? (
        <Group
          gap={6}
          wrap="nowrap"
          data-testid="status-connection"
          data-status={connection.status}
          title={
            connection.status === 'failed' || connection.status === 'waiting' ? connection.message : undefined
          }
        >
          <Box w={8} h={8} style={{ borderRadius: '50%', background: DOT[connection.status] }} aria-hidden />
          <Text fz="xs" span>
            {describeConnection(connection)}
          </Text>
        </Group>
      ) : null}
      <HostStatus />
      <Box flex={1} />
      <JobsTrayButton />
      {info ? (
        <Text fz="xs" c="dimmed" span data-testid="status-version">
          v{info.version} · {info.host}
        </Text>
      ) : null}
    </Group>
  );
}
