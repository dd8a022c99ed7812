import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { COLOR_SCHEME_CHOICES, useColorSchemeChoice, type ColorSchemeChoice } from '../theme';

const ICONS: Record<ColorSchemeChoice, typeof IconSun> = {
  light: IconSun,
  dark: IconMoon,
  auto: IconDeviceDesktop,
};

/** The navigation bar's theme switch: light, dark, or the system's (remembered across restarts). */
export function ColorSchemeMenu() {
  const { choice, setChoice } = useColorSchemeChoice();
  const Current = ICONS[choice];
  return (
    <Menu position="right-end" withinPortal>
      <Tooltip label="Theme" position="right">
        <Menu.Target>
          <ActionIcon size="lg" aria-label="Theme" data-testid="color-scheme-menu" data-choice={choice}>
            <Current size={18} stroke={1.6} />
          </ActionIcon>
        </Menu.Target>
      </Tooltip>
      <Menu.Dropdown>
        <Menu.Label>Theme</Menu.Label>
        {COLOR_SCHEME_CHOICES.map(({ value, label }) => {
          const Icon = ICONS[value];
          return (
            <Menu.Item
              key={value}
              leftSection={<Icon size={16} stroke={1.6} />}
              rightSection={value === choice ? <IconCheck size={14} /> : null}
              onClick={() => setChoice(value)}
              data-testid={`color-scheme-${value}`}
            >
              {label}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
