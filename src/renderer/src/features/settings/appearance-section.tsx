import { Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { COLOR_SCHEME_CHOICES, useColorSchemeChoice, type ColorSchemeChoice } from '../../theme';

/** Light, dark or the system's colours; remembered across restarts. */
export function AppearanceSection() {
  const { choice, setChoice } = useColorSchemeChoice();
  return (
    <Paper component="section" aria-labelledby="appearance-title" data-testid="appearance-section">
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Stack gap={2}>
          <Title order={2} id="appearance-title">
            Appearance
          </Title>
          <Text c="dimmed">Grids and charts follow the theme. The choice is kept on this computer.</Text>
        </Stack>
        <SegmentedControl
          aria-label="Theme"
          data-testid="appearance-theme"
          value={choice}
          onChange={(v) => setChoice(v as ColorSchemeChoice)}
          data={COLOR_SCHEME_CHOICES.map((c) => ({ value: c.value, label: c.label }))}
        />
      </Group>
    </Paper>
  );
}
