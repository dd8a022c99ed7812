import { Modal, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { commandsOfMenu, shortcutKeys, type CommandEntry } from '@shared/app/command-table';
import { useSessionStore } from '../session';
import { ShortcutKeys } from './shortcut-keys';
import { useShortcutsStore } from './shortcuts-store';

/** The menus, named as the menu bar names them, in two columns so the list needs no scrolling. */
const COLUMNS: readonly (readonly { menu: CommandEntry['menu']; title: string }[])[] = [
  [
    { menu: 'file', title: 'File' },
    { menu: 'go', title: 'Go' },
  ],
  [
    { menu: 'review', title: 'Firms → review queue' },
    { menu: 'view', title: 'View' },
    { menu: 'help', title: 'Help' },
  ],
];

function MenuShortcuts({
  menu,
  title,
  platform,
}: {
  menu: CommandEntry['menu'];
  title: string;
  platform: string;
}) {
  const entries = commandsOfMenu(menu).filter((c) => c.accelerator);
  if (entries.length === 0) return null;
  return (
    <Table fz="sm" verticalSpacing={4} data-testid={`shortcuts-${menu}`}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th colSpan={2}>{title}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((c) => (
          <Table.Tr key={c.id} data-testid={`shortcut-${c.id}`}>
            <Table.Td>{c.label}</Table.Td>
            <Table.Td>
              <ShortcutKeys keys={shortcutKeys(c.accelerator ?? '', platform)} justify="flex-end" />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Help → Keyboard Shortcuts (Ctrl/⌘+/, or the command palette): every shortcut of the command table,
 * by menu, with the keys the menus and the palette show. Written from the table, so a new command's
 * shortcut is listed here with nothing else to change.
 */
export function ShortcutsDialog() {
  const opened = useShortcutsStore((s) => s.opened);
  const platform = useSessionStore((s) => s.appInfo?.platform ?? '');
  const { close } = useShortcutsStore.getState();
  return (
    <Modal opened={opened} onClose={close} title="Keyboard shortcuts" size="xl">
      <Stack gap="md" data-testid="shortcuts-dialog">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
          {COLUMNS.map((menus, i) => (
            <Stack key={i} gap="md">
              {menus.map((m) => (
                <MenuShortcuts key={m.menu} {...m} platform={platform} />
              ))}
            </Stack>
          ))}
        </SimpleGrid>
        <Text fz="sm" c="dimmed">
          On every page, Enter in a field runs its form, and Escape closes a dialog, a menu or a panel (or
          cancels a running search). In a grid the arrows move between cells and Tab leaves it.
        </Text>
      </Stack>
    </Modal>
  );
}
