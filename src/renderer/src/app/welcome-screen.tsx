import {
  Center,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconFlask, IconPlugConnected } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ErrorMessage } from '../components/error-message';
import { useSessionStore } from '../session';
import { connectAccount } from './commands';

function Choice(props: {
  icon: ReactNode;
  title: string;
  text: string;
  onClick: () => void;
  disabled?: boolean;
  primary?: boolean;
  testId: string;
}) {
  return (
    <UnstyledButton
      onClick={props.onClick}
      disabled={props.disabled}
      data-testid={props.testId}
      style={{ display: 'block', height: '100%' }}
    >
      <Paper
        h="100%"
        p="lg"
        radius="md"
        shadow="xs"
        style={{
          borderColor: props.primary ? 'var(--mantine-primary-color-filled)' : undefined,
          opacity: props.disabled ? 0.7 : 1,
        }}
      >
        <Stack gap="xs" align="flex-start">
          <ThemeIcon variant={props.primary ? 'filled' : 'light'} size="lg" radius="md">
            {props.icon}
          </ThemeIcon>
          <Text fw={600} fz="lg">
            {props.title}
          </Text>
          <Text c="dimmed" fz="md">
            {props.text}
          </Text>
        </Stack>
      </Paper>
    </UnstyledButton>
  );
}

/** First run: no profile yet. Either try the built-in demo workspace or set up a real account. */
export function WelcomeScreen() {
  const demo = useSessionStore((s) => s.demo);
  const startDemo = useSessionStore((s) => s.startDemo);
  return (
    <Center component="main" mih="100%" p="xl" data-testid="welcome-screen">
      <Stack maw={640} gap="lg" align="center">
        <Text c="blue.5" fz={40} lh={1} aria-hidden>
          ◈
        </Text>
        <Title order={1} ta="center">
          Welcome to Portolan
        </Title>
        <Text c="dimmed" ta="center" fz="lg">
          Search international shipment records and trading firms, keep results in an offline library and
          export them to Excel, CSV or Parquet.
        </Text>
        <SimpleGrid cols={2} spacing="md" w="100%">
          <Choice
            testId="welcome-demo"
            primary
            icon={demo.starting ? <Loader size={16} color="white" /> : <IconFlask size={18} />}
            title={demo.starting ? 'Starting the demo…' : 'Try with demo data'}
            text="A local simulated service with generated records. No account needed."
            onClick={() => void startDemo()}
            disabled={demo.starting}
          />
          <Choice
            testId="welcome-connect"
            icon={<IconPlugConnected size={18} />}
            title="Connect your account"
            text="Enter the service address and the API key and secret from your account portal."
            onClick={connectAccount}
          />
        </SimpleGrid>
        {demo.error ? <ErrorMessage error={demo.error} testId="welcome-error" /> : null}
      </Stack>
    </Center>
  );
}
