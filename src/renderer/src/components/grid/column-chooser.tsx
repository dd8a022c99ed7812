import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Popover,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { Column, GridApi } from 'ag-grid-community';

interface ChooserGroup {
  id: string;
  name: string;
  columns: { id: string; name: string; visible: boolean; pinned: Pin }[];
}

type Pin = 'left' | 'right' | null;

const PIN_CHOICES = [
  { value: '', label: 'Not pinned' },
  { value: 'left', label: 'Pin left' },
  { value: 'right', label: 'Pin right' },
];

function readGroups(api: GridApi): ChooserGroup[] {
  const groups = new Map<string, ChooserGroup>();
  for (const col of api.getColumns() ?? []) {
    const def = col.getColDef();
    if (def.lockVisible) continue;
    const parent = col.getOriginalParent();
    const gid = parent?.getGroupId() ?? '';
    const gname = parent?.getColGroupDef()?.headerName ?? 'Columns';
    const g = groups.get(gid) ?? { id: gid, name: gname, columns: [] };
    const pinned = col.getPinned();
    g.columns.push({
      id: col.getColId(),
      name: def.headerName ?? col.getColId(),
      visible: col.isVisible(),
      pinned: pinned === 'left' || pinned === 'right' ? pinned : null,
    });
    groups.set(gid, g);
  }
  return [...groups.values()];
}

/**
 * Community ag-grid has neither a columns tool panel nor a column menu (so no "Pin column" either):
 * this is a small replacement, grouped like the grid, that shows, hides and pins. It is a Mantine
 * popover: it keeps to the window (its list scrolls inside it), focus goes to its search box and comes
 * back to the button, Escape closes it. Columns are named as their headers are, never by their fields.
 */
export function ColumnChooser({
  api,
  testId,
  onReset,
}: {
  api: GridApi | null;
  testId: string;
  onReset?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [groups, setGroups] = useState<ChooserGroup[]>([]);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    if (!api || !open) return;
    const update = () => setGroups(readGroups(api));
    update();
    api.addEventListener('columnVisible', update);
    api.addEventListener('columnPinned', update);
    api.addEventListener('newColumnsLoaded', update);
    return () => {
      if (api.isDestroyed()) return;
      api.removeEventListener('columnVisible', update);
      api.removeEventListener('columnPinned', update);
      api.removeEventListener('newColumnsLoaded', update);
    };
  }, [api, open]);
  const set = (cols: (string | Column)[], visible: boolean) => api?.setColumnsVisible(cols, visible);
  const pin = (col: string, to: Pin) => {
    // Pinning a hidden column would do nothing visible: show it as well.
    api?.setColumnsVisible([col], true);
    api?.setColumnsPinned([col], to);
  };
  const q = filter.trim().toLowerCase();
  const shown = groups
    .map((g) => ({
      ...g,
      columns: g.columns.filter(
        (c) => !q || c.name.toLowerCase().includes(q) || c.id.toLowerCase().includes(q),
      ),
    }))
    .filter((g) => g.columns.length > 0);
  return (
    <Popover
      opened={open}
      onChange={setOpen}
      position="bottom-end"
      width={380}
      shadow="md"
      trapFocus
      returnFocus
      closeOnEscape
      // The list may be longer than the window has room for: the popover keeps to the window and
      // its list scrolls (the size middleware gives it the room that is left as its max height).
      middlewares={{
        flip: true,
        shift: { padding: 8 },
        size: {
          padding: 8,
          apply: ({ availableHeight, elements }) => {
            elements.floating.style.maxHeight = `${Math.max(160, Math.min(480, availableHeight))}px`;
          },
        },
      }}
    >
      <Popover.Target>
        <Button
          variant="default"
          data-testid={`${testId}-toggle`}
          aria-expanded={open}
          disabled={!api}
          onClick={() => setOpen((o) => !o)}
        >
          Columns…
        </Button>
      </Popover.Target>
      <Popover.Dropdown
        data-testid={testId}
        aria-label="Choose columns"
        p="sm"
        style={{ display: 'flex', flexDirection: 'column', gap: 'var(--mantine-spacing-sm)' }}
      >
        <Group gap="sm" wrap="nowrap">
          <TextInput
            flex={1}
            data-autofocus
            type="search"
            placeholder="Find a column"
            aria-label="Find a column"
            leftSection={<IconSearch size={16} stroke={1.6} />}
            value={filter}
            data-testid={`${testId}-search`}
            onChange={(e) => setFilter(e.currentTarget.value)}
          />
          {onReset && (
            <Button variant="subtle" data-testid={`${testId}-reset`} onClick={onReset}>
              Reset to defaults
            </Button>
          )}
        </Group>
        <Box style={{ flex: '1 1 auto', minHeight: 0, overflowY: 'auto', overflowX: 'hidden' }}>
          <Stack gap="md">
            {shown.length === 0 && (
              <Text fz="sm" c="dimmed" data-testid={`${testId}-none-found`}>
                No column is called “{filter.trim()}”.
              </Text>
            )}
            {shown.map((g) => (
              <Stack key={g.id} gap="xs" role="group" aria-label={g.name}>
                <Group gap="xs" wrap="nowrap">
                  <Text fw={600} fz="sm" flex={1} truncate>
                    {g.name}
                  </Text>
                  <UnstyledButton
                    fz="xs"
                    c="blue"
                    data-testid={`${testId}-all-${g.id}`}
                    aria-label={`Show every ${g.name} column${q ? ' listed' : ''}`}
                    onClick={() =>
                      set(
                        g.columns.map((c) => c.id),
                        true,
                      )
                    }
                  >
                    Show all
                  </UnstyledButton>
                  <Text fz="xs" c="dimmed" aria-hidden>
                    ·
                  </Text>
                  <UnstyledButton
                    fz="xs"
                    c="blue"
                    data-testid={`${testId}-none-${g.id}`}
                    aria-label={`Hide every ${g.name} column${q ? ' listed' : ''}`}
                    onClick={() =>
                      set(
                        g.columns.map((c) => c.id),
                        false,
                      )
                    }
                  >
                    Hide all
                  </UnstyledButton>
                </Group>
                {g.columns.map((c) => (
                  <Group key={c.id} gap="sm" wrap="nowrap" justify="space-between">
                    <Checkbox
                      flex={1}
                      miw={0}
                      size="xs"
                      label={c.name}
                      checked={c.visible}
                      data-testid={`${testId}-col-${c.id}`}
                      onChange={(e) => set([c.id], e.currentTarget.checked)}
                    />
                    <NativeSelect
                      size="xs"
                      w={104}
                      aria-label={`Pin ${c.name}`}
                      title="Pin the column to an edge of the grid"
                      data={PIN_CHOICES}
                      value={c.pinned ?? ''}
                      data-testid={`${testId}-pin-${c.id}`}
                      onChange={(e) => {
                        const to = e.currentTarget.value;
                        pin(c.id, to === 'left' || to === 'right' ? to : null);
                      }}
                    />
                  </Group>
                ))}
              </Stack>
            ))}
          </Stack>
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}
