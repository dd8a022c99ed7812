import { useRef } from 'react';
import { Alert, Box, Button, EmptyState, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { Page, PageHeader } from '../../components/page';
import { useSessionStore } from '../../session';
import { AppearanceSection } from './appearance-section';
import { KeychainBanner } from './keychain-banner';
import { ProfileCard } from './profile-card';
import { ProfileForm } from './profile-form';
import { useSettingsStore } from './settings-store';

const ICON = { size: 16, stroke: 1.6 } as const;

/**
 * Asks before a profile goes, naming what is lost; Keep or Escape cancels and the focus goes back to
 * the profile's Delete button (Mantine's Modal returns it).
 */
function DeleteConfirm() {
  const id = useSettingsStore((s) => s.confirmDeleteId);
  const error = useSettingsStore((s) => s.deleteError);
  const deleting = useSettingsStore((s) => s.deleting);
  const profile = useSessionStore((s) => s.profiles.find((p) => p.id === id));
  const { cancelDelete, confirmDelete } = useSettingsStore.getState();
  return (
    <Modal
      opened={id !== null}
      onClose={cancelDelete}
      title={`Delete the profile “${profile?.name ?? ''}”?`}
      size="sm"
      data-testid="profile-delete-confirm"
    >
      <Stack gap="md">
        <Text>
          {profile?.demo
            ? 'The demo profile goes; the demo workspace can be started again from the welcome screen.'
            : 'Its service address and account are forgotten, and its API key and secret are removed from the keychain.'}
        </Text>
        {error ? (
          <Alert color="red" role="alert" py="xs" data-testid="profile-delete-error">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={cancelDelete} data-testid="profile-delete-no" data-autofocus>
            Keep
          </Button>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash {...ICON} />}
            loading={deleting}
            onClick={() => void confirmDelete()}
            data-testid="profile-delete-yes"
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function SettingsPage() {
  const profiles = useSessionStore((s) => s.profiles);
  const activeId = useSessionStore((s) => s.activeId);
  const keychainProblem = useSessionStore((s) => s.keychainProblem);
  const refreshProfiles = useSessionStore((s) => s.refreshProfiles);
  const activeError = useSettingsStore((s) => s.activeError);
  const creating = useSettingsStore((s) => s.editor.mode === 'create');
  // While a form is open its Save is the screen's one primary action.
  const formOpen = useSettingsStore((s) => s.editor.mode !== 'closed' || s.credentialsFor !== null);
  const openCreate = useSettingsStore((s) => s.openCreate);
  const newButton = useRef<HTMLButtonElement>(null);
  return (
    <Page testId="settings-page" narrow aria-labelledby="settings-title">
      <PageHeader title="Settings" titleId="settings-title" />
      {keychainProblem ? <KeychainBanner problem={keychainProblem} onCheckAgain={refreshProfiles} /> : null}
      <Stack component="section" gap="md" aria-labelledby="profiles-title">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
          <Box miw={0}>
            <Title order={2} id="profiles-title">
              Connection profiles
            </Title>
            <Text c="dimmed" mt={2}>
              Each profile is one service address and account. Keys and secrets are kept in the system
              keychain, never in Portolan&apos;s files.
            </Text>
          </Box>
          <Button
            ref={newButton}
            variant={formOpen ? 'default' : 'filled'}
            leftSection={<IconPlus {...ICON} />}
            onClick={openCreate}
            disabled={creating}
            data-testid="profile-new"
            style={{ flexShrink: 0 }}
          >
            New profile
          </Button>
        </Group>
        {creating ? <ProfileForm returnTo={newButton} /> : null}
        {activeError ? (
          <Alert color="red" role="alert" py="xs" data-testid="profile-active-error">
            {activeError}
          </Alert>
        ) : null}
        {profiles.length === 0 ? (
          creating ? null : (
            <EmptyState
              data-testid="profiles-empty"
              icon={<IconPlugConnected size={24} stroke={1.6} />}
              title="No connection profiles yet"
              description="Create one with New profile: the address of the service and your API key and secret."
            />
          )
        ) : (
          <Stack component="ul" gap="md" m={0} p={0} style={{ listStyle: 'none' }} data-testid="profile-list">
            {profiles.map((p) => (
              <ProfileCard key={p.id} profile={p} active={p.id === activeId} />
            ))}
          </Stack>
        )}
      </Stack>
      <AppearanceSection />
      <DeleteConfirm />
    </Page>
  );
}
