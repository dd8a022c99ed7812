import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { KeychainProblem } from '@shared/profiles/profiles-contract';
import { MessageText } from '../../components/message-text';

/**
 * Shown when the keychain cannot be used: what happened and what to do in the analyst's words, then
 * what still works; the system's own text last, small, for whoever helps. Check again asks main once
 * more, so unlocking the keyring or starting a Secret Service needs no restart.
 */
export function KeychainBanner({
  problem,
  onCheckAgain,
}: {
  problem: KeychainProblem;
  onCheckAgain?: () => Promise<void>;
}) {
  return (
    <Alert
      color="orange"
      role="alert"
      title="API keys cannot be saved or used"
      icon={<IconAlertTriangle size={16} stroke={1.6} />}
      data-testid="keychain-banner"
    >
      <Text fz="md" data-testid="keychain-problem">
        <MessageText text={problem.problem} />
      </Text>
      <Text fz="md" mt="xs" data-testid="keychain-action">
        <MessageText text={problem.action} />
      </Text>
      <Text fz="md" mt="xs">
        The offline library and the demo workspace work without it. Portolan never keeps API keys in a plain
        file instead.
      </Text>
      <Group gap="md" mt="sm" wrap="nowrap" align="center">
        {onCheckAgain && (
          <Button
            variant="default"
            size="xs"
            data-testid="keychain-check-again"
            onClick={() => void onCheckAgain()}
          >
            Check again
          </Button>
        )}
        <Text fz="xs" c="dimmed" miw={0} data-testid="keychain-detail">
          The system said: {problem.detail}
        </Text>
      </Group>
    </Alert>
  );
}
