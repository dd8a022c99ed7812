import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { MessageText } from '../../components/message-text';

/** Shown when the keychain cannot be used: profiles still work, but keys and secrets cannot be stored. */
export function KeychainBanner({ problem }: { problem: string }) {
  return (
    <Alert
      color="orange"
      role="alert"
      title="Keychain problem"
      icon={<IconAlertTriangle size={16} stroke={1.6} />}
      data-testid="keychain-banner"
    >
      <Text fz="md" data-testid="keychain-problem">
        <MessageText text={problem} />
      </Text>
      <Text fz="md" mt="xs">
        Until this is fixed, API keys and secrets cannot be saved or used. Everything else keeps working,
        including the demo workspace.
      </Text>
    </Alert>
  );
}
