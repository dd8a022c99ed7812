import { Drawer, Group, Loader, Text, Title, UnstyledButton } from '@mantine/core';
import { IconBriefcase } from '@tabler/icons-react';
import { JobsPanel } from './jobs-panel';
import { useJobsStore, useRunningJobIds } from './jobs-store';

/** The status bar's way into the jobs tray: how many jobs run, or are left unfinished. */
export function JobsTrayButton() {
  const running = useRunningJobIds().length;
  const unfinished = useJobsStore((s) => s.resumable.length);
  const open = useJobsStore((s) => s.trayOpen);
  const openTray = useJobsStore((s) => s.openTray);
  const text =
    running > 0
      ? `${running} job${running === 1 ? '' : 's'} running`
      : unfinished > 0
        ? `${unfinished} unfinished job${unfinished === 1 ? '' : 's'}`
        : 'Jobs';
  return (
    <UnstyledButton
      onClick={openTray}
      data-testid="jobs-tray-button"
      data-running={running}
      data-unfinished={unfinished}
      aria-haspopup="dialog"
      aria-expanded={open}
      fz="xs"
      px={6}
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    >
      <Group gap={6} wrap="nowrap">
        {running > 0 ? <Loader size={10} /> : <IconBriefcase size={14} stroke={1.6} />}
        <Text fz="xs" span c={running === 0 && unfinished > 0 ? 'orange' : undefined}>
          {text}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

/**
 * The jobs tray: a drawer from the right with every job, opened from the status bar (or when the
 * analyst starts a fetch). Escape closes it and focus goes back where it was; the jobs run on.
 */
export function JobsTray() {
  const open = useJobsStore((s) => s.trayOpen);
  const closeTray = useJobsStore((s) => s.closeTray);
  return (
    <Drawer
      opened={open}
      onClose={closeTray}
      // Headed as the other side panels are (a shipment's parties, a record, a firm's profile).
      title={
        <Title order={2} component="span" data-testid="jobs-heading">
          Jobs
        </Title>
      }
      size={420}
      data-testid="jobs-tray"
      closeButtonProps={{ 'aria-label': 'Close the jobs tray' }}
    >
      <JobsPanel />
    </Drawer>
  );
}
