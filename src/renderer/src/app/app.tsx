import { AppShell, Box, Center, Group, Loader, Text } from '@mantine/core';
import { ErrorMessage } from '../components/error-message';
import { FetchAllDialog, JobsTray } from '../features/jobs';
import { CommandPalette } from './command-palette';
import { selectShowWelcome, useSessionStore } from '../session';
import { NavBar } from './nav-bar';
import { PageView } from './page-view';
import { ShortcutsDialog } from './shortcuts-dialog';
import { StatusBar } from './status-bar';
import { useAppBoot } from './use-app-boot';
import { WelcomeScreen } from './welcome-screen';

/** Height of the status bar along the bottom. */
const STATUS_BAR_HEIGHT = 28;

export function App() {
  useAppBoot();
  const booted = useSessionStore((s) => s.booted);
  const bootError = useSessionStore((s) => s.bootError);
  const showWelcome = useSessionStore(selectShowWelcome);
  const page = useSessionStore((s) => s.page);
  if (!booted) {
    return (
      <Center h="100%" data-testid="app-loading">
        <Group gap="sm">
          <Loader size="sm" />
          <Text c="dimmed">Loading…</Text>
        </Group>
      </Center>
    );
  }
  if (showWelcome && !bootError) return <WelcomeScreen />;
  return (
    <AppShell
      navbar={{ width: { base: 60, lg: 184 }, breakpoint: 'xs' }}
      footer={{ height: STATUS_BAR_HEIGHT }}
      padding={0}
      data-testid="app-shell"
      data-page={page}
    >
      <AppShell.Navbar bg="var(--portolan-surface-muted)">
        <NavBar />
      </AppShell.Navbar>
      {/* Main spans the whole window height with the bars as padding; the page area inside it is exactly
          the window minus the bars, so a page scrolls (or a grid fills) above the status bar, never under it. */}
      <AppShell.Main h="100dvh" style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
        <Box
          data-testid="page-container"
          flex={1}
          mih={0}
          style={{ display: 'flex', flexDirection: 'column', overflow: 'auto' }}
        >
          {bootError ? <ErrorMessage error={bootError} testId="boot-error" /> : null}
          <PageView page={page} />
        </Box>
      </AppShell.Main>
      <AppShell.Footer>
        <StatusBar />
      </AppShell.Footer>
      {/* Opened from any page: the jobs tray (status bar) and the fetch-all confirm (Search, Firms). */}
      <JobsTray />
      <FetchAllDialog />
      <CommandPalette />
      <ShortcutsDialog />
    </AppShell>
  );
}
