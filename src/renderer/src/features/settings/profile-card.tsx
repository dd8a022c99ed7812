import type { ReactNode } from 'react';
import { Badge, Button, DataList, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPlugConnected, IconTrash } from '@tabler/icons-react';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import { CredentialsForm } from './credentials-form';
import { ProfileForm } from './profile-form';
import { useSettingsStore } from './settings-store';
import { TestResult } from './test-result';

const ICON = { size: 16, stroke: 1.6 } as const;

function Fact({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel c="dimmed">{label}</DataList.ItemLabel>
      <DataList.ItemValue data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </DataList.ItemValue>
    </DataList.Item>
  );
}

const notSet = (
  <Text span c="dimmed" inherit>
    not set
  </Text>
);

/** One connection profile: what it holds, its actions, and the outcome of its connection test. */
export function ProfileCard({ profile, active }: { profile: ProfileView; active: boolean }) {
  const test = useSettingsStore((s) => s.tests[profile.id]);
  const editing = useSettingsStore((s) => s.editor.mode === 'edit' && s.editor.id === profile.id);
  const editingCreds = useSettingsStore((s) => s.credentialsFor === profile.id);
  const { openEdit, openCredentials, askDelete, setActive, testConnection } = useSettingsStore.getState();
  const canTest = profile.demo || (profile.apiKeyMasked !== null && profile.hasSecret);
  const testButton = (
    <Button
      variant="default"
      leftSection={<IconPlugConnected {...ICON} />}
      disabled={!canTest}
      loading={test?.status === 'running'}
      onClick={() => void testConnection(profile.id)}
      data-testid="profile-test"
    >
      Test connection
    </Button>
  );
  return (
    <Paper
      component="li"
      data-testid="profile-card"
      data-profile-name={profile.name}
      data-profile-id={profile.id}
      data-active={active}
      style={active ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="md">
          <Group gap="sm" align="center" miw={0} wrap="nowrap">
            <Title order={3} data-testid="profile-card-name" style={{ overflowWrap: 'anywhere' }}>
              {profile.name}
            </Title>
            {active ? (
              <Badge variant="light" data-testid="profile-active-badge">
                Active
              </Badge>
            ) : null}
            {profile.demo ? (
              <Badge variant="light" color="gray">
                Demo
              </Badge>
            ) : null}
          </Group>
          <Group gap="xs" justify="flex-end">
            {!active ? (
              <Button
                variant="default"
                onClick={() => void setActive(profile.id)}
                data-testid="profile-set-active"
              >
                Use this profile
              </Button>
            ) : null}
            {canTest ? (
              testButton
            ) : (
              <Tooltip label="Set the API key and secret first">
                <span>{testButton}</span>
              </Tooltip>
            )}
            {!profile.demo ? (
              <>
                <Button
                  variant="default"
                  onClick={() => openCredentials(profile.id)}
                  disabled={editingCreds}
                  data-testid="profile-credentials"
                >
                  {profile.hasSecret ? 'Replace key & secret' : 'Set key & secret'}
                </Button>
                <Button
                  variant="default"
                  onClick={() => openEdit(profile)}
                  disabled={editing}
                  data-testid="profile-edit"
                >
                  Edit
                </Button>
              </>
            ) : null}
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash {...ICON} />}
              onClick={() => askDelete(profile.id)}
              data-testid="profile-delete"
            >
              Delete
            </Button>
          </Group>
        </Group>
        {editing ? (
          <ProfileForm inCard />
        ) : (
          <DataList orientation="vertical" gap="xs" display="grid" style={FACTS}>
            <Fact label="Service address" testId="profile-card-base-url">
              {profile.baseUrl}
            </Fact>
            <Fact label="Account">
              {profile.accountName || (
                <Text span c="dimmed" inherit>
                  default
                </Text>
              )}
            </Fact>
            <Fact label="API key" testId="profile-card-key">
              {profile.apiKeyMasked ?? notSet}
            </Fact>
            <Fact label="API secret" testId="profile-card-secret">
              {profile.hasSecret
                ? profile.demo
                  ? 'generated for this session'
                  : 'stored in keychain'
                : notSet}
            </Fact>
          </DataList>
        )}
        {editingCreds ? <CredentialsForm profile={profile} /> : null}
        <TestResult state={test} accountName={profile.accountName} />
      </Stack>
    </Paper>
  );
}

/** The facts side by side: the address takes the room it needs, the short ones share the rest. */
const FACTS = {
  gridTemplateColumns: 'minmax(0, 2fr) repeat(3, minmax(0, 1fr))',
  columnGap: 'var(--mantine-spacing-lg)',
} as const;
