import {
  ActionIcon,
  Badge,
  Box,
  Group,
  Indicator,
  NavLink,
  Stack,
  Text,
  Tooltip,
  useMatches,
} from '@mantine/core';
import { usePaletteStore } from './palette-store';
import { IconCommand } from '@tabler/icons-react';
import { APP_COMMANDS, shortcutText } from '@shared/app/command-table';
import { PAGES, selectReviewCount, useResolutionStore, useSessionStore } from '../session';
import { ColorSchemeMenu } from './color-scheme-menu';
import { PAGE_ICONS } from './page-icons';

/** Wide windows show the pages' names; narrow ones (below 1200 px) icons with the name as a tooltip. */
export function useWideNav(): boolean {
  return useMatches({ base: false, lg: true });
}

export function NavBar() {
  const page = useSessionStore((s) => s.page);
  const navigate = useSessionStore((s) => s.navigate);
  const wide = useWideNav();
  // Close calls waiting in the firms' review queue, beside Firms.
  const review = useResolutionStore(selectReviewCount) ?? 0;
  const platform = useSessionStore((s) => s.appInfo?.platform ?? '');
  // The shortcuts of the command table, as the menu and the palette show them.
  const keys = (id: string) => {
    const accelerator = APP_COMMANDS.find((c) => c.id === id)?.accelerator;
    return accelerator ? shortcutText(accelerator, platform) : '';
  };
  return (
    <Stack component="nav" aria-label="Main" gap={0} h="100%" p="xs" justify="space-between">
      <Box>
        <Group gap={6} px={wide ? 'sm' : 0} py="sm" justify={wide ? 'flex-start' : 'center'} aria-hidden>
          <Text c="blue.5" fz="lg" lh={1}>
            ◈
          </Text>
          {wide && (
            <Text fw={700} fz="md">
              Portolan
            </Text>
          )}
        </Group>
        <Stack gap={2} mt="xs">
          {PAGES.map((p) => {
            const Icon = PAGE_ICONS[p.id];
            const current = p.id === page;
            const count = p.id === 'firms' ? review : 0;
            const countLabel = `${count.toLocaleString('en-US')} ${count === 1 ? 'firm pair' : 'firm pairs'} to review`;
            const icon = <Icon size={18} stroke={1.6} />;
            const link = (
              <NavLink
                key={p.id}
                component="button"
                type="button"
                active={current}
                variant="light"
                aria-current={current ? 'page' : undefined}
                aria-label={
                  wide
                    ? count
                      ? `${p.label}, ${countLabel}`
                      : undefined
                    : count
                      ? `${p.label}, ${countLabel}`
                      : p.label
                }
                onClick={() => navigate(p.id)}
                data-testid={`nav-${p.id}`}
                label={wide ? p.label : null}
                leftSection={
                  count && !wide ? (
                    <Indicator
                      size={8}
                      color="orange"
                      offset={2}
                      data-testid={`nav-${p.id}-count`}
                      data-count={count}
                    >
                      {icon}
                    </Indicator>
                  ) : (
                    icon
                  )
                }
                rightSection={
                  count && wide ? (
                    <Badge
                      size="sm"
                      variant="light"
                      color="orange"
                      data-testid={`nav-${p.id}-count`}
                      data-count={count}
                    >
                      {count > 999 ? '999+' : count.toLocaleString('en-US')}
                    </Badge>
                  ) : undefined
                }
                styles={{
                  root: { borderRadius: 'var(--mantine-radius-sm)' },
                  section: wide ? undefined : { marginInlineEnd: 0 },
                }}
                style={wide ? undefined : { justifyContent: 'center' }}
              />
            );
            // Narrow: the name (and what waits there) and the shortcut; wide: the name is on screen, the shortcut on hover.
            const name = count ? `${p.label}: ${countLabel}` : p.label;
            return (
              <Tooltip
                key={p.id}
                label={wide ? keys(`go-${p.id}`) : `${name} (${keys(`go-${p.id}`)})`}
                position="right"
                openDelay={wide ? 500 : 0}
              >
                {link}
              </Tooltip>
            );
          })}
        </Stack>
      </Box>
      <Stack gap="xs" align={wide ? 'flex-start' : 'center'} px={wide ? 'xs' : 0}>
        <Tooltip label={`Command palette (${keys('command-palette')})`} position="right">
          <ActionIcon
            size="lg"
            variant="subtle"
            aria-label="Command palette"
            data-testid="command-palette-open"
            onClick={() => usePaletteStore.getState().open()}
          >
            <IconCommand size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
        <ColorSchemeMenu />
      </Stack>
    </Stack>
  );
}
