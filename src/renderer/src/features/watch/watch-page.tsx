import {
  Badge,
  Box,
  Button,
  EmptyState,
  Group,
  NativeSelect,
  NavLink,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { IconEye, IconSearch } from '@tabler/icons-react';
import { ErrorMessage } from '../../components/error-message';
import { Page, PageHeader } from '../../components/page';
import { useSessionStore } from '../../session';
import { usePresetsStore } from '../presets';
import { ChangesPanel } from './changes-panel';
import { RefreshDialog } from './refresh-dialog';
import { refreshUnavailable, useWatchStore } from './watch-store';
import { formatMoment } from '../../components/format';

const n = (v: number): string => v.toLocaleString('en-US');

/**
 * Watched queries: each one is one dataset whose snapshots are listed with their date, size and
 * completeness; Refresh (the page's one primary action) checks the cost first and fetches only what is
 * new; what changed between two snapshots opens its shipments in the Library.
 */
export function WatchPage() {
  const { load, select, checkCost, openInLibrary, remove } = useWatchStore.getState();
  const watches = useWatchStore((s) => s.watches);
  const loaded = useWatchStore((s) => s.loaded);
  const listError = useWatchStore((s) => s.listError);
  const selectedId = useWatchStore((s) => s.selectedId);
  const detail = useWatchStore((s) => s.detail);
  const outcome = useWatchStore((s) => s.lastOutcome);
  const why = useWatchStore(refreshUnavailable);
  const presets = usePresetsStore((s) => s.presets);
  const [presetId, setPresetId] = useState('');
  useEffect(() => {
    void load();
    void usePresetsStore.getState().load();
  }, [load]);
  const preset = presets.find((p) => p.id === presetId);
  return (
    <Page testId="watched-page" layout="fill">
      <PageHeader
        title="Watched queries"
        description="A query's history: each refresh fetches only what is new and shows what changed"
        actions={
          <Tooltip
            label={why ?? 'Checks the cost first, then fetches only what is new'}
            multiline
            w={300}
            events={{ hover: true, focus: true, touch: true }}
          >
            <Button
              data-testid="watch-refresh"
              // Not `disabled`: a disabled button takes no hover or focus, and its reason would not show.
              data-disabled={why !== null || undefined}
              aria-disabled={why !== null || undefined}
              aria-description={why ?? undefined}
              onClick={() => {
                if (why === null) void checkCost();
              }}
            >
              Refresh…
            </Button>
          </Tooltip>
        }
      />
      {listError && <ErrorMessage error={listError} testId="watch-error" />}
      <Group gap="lg" flex={1} mih={0} align="stretch" wrap="nowrap">
        <Box w={300} miw={260}>
          <Stack gap="sm" h="100%">
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <NativeSelect
                label="Watch a preset"
                data-testid="watch-preset"
                flex={1}
                value={presetId}
                onChange={(e) => setPresetId(e.currentTarget.value)}
                data={[
                  { value: '', label: presets.length ? '(choose a preset)' : '(no presets saved)' },
                  ...presets.map((p) => ({ value: p.id, label: p.name })),
                ]}
              />
              <Button
                variant="default"
                data-testid="watch-preset-start"
                disabled={!preset}
                onClick={() =>
                  preset && void checkCost({ request: preset.filter, name: preset.name, presetId: preset.id })
                }
              >
                Watch…
              </Button>
            </Group>
            <ScrollArea flex={1} type="auto" data-testid="watch-list">
              {loaded && watches.length === 0 && (
                <Text c="dimmed" fz="sm" data-testid="watch-list-empty">
                  No watched queries yet.
                </Text>
              )}
              {watches.map((w) => (
                <NavLink
                  key={w.id}
                  active={w.id === selectedId}
                  onClick={() => void select(w.id)}
                  label={w.name}
                  description={`${w.snapshots} snapshot${w.snapshots === 1 ? '' : 's'} · ${n(w.records)} records · ${formatMoment(w.lastTakenAt)}`}
                  rightSection={
                    w.status === 'partial' ? (
                      <Badge color="yellow" size="xs">
                        Incomplete
                      </Badge>
                    ) : null
                  }
                  data-testid="watch-list-item"
                />
              ))}
            </ScrollArea>
          </Stack>
        </Box>
        <Box flex={1} miw={0}>
          <ScrollArea h="100%" type="auto" offsetScrollbars>
            {!detail && loaded && watches.length === 0 && (
              <EmptyState
                pt="xl"
                data-testid="watch-empty"
                icon={<IconEye size={24} stroke={1.6} />}
                withIndicatorBackground
                title="No watched queries yet"
                description={
                  presets.length
                    ? 'Choose a preset and Watch… (its first snapshot fetches the whole query), or open a fetched dataset in the Library and press Watch (its rows are the first snapshot). Each refresh then fetches only what is new and shows what changed.'
                    : 'A watch follows a saved preset: save one on the Search page, then choose it here and Watch… Or open a fetched dataset in the Library and press Watch. Each refresh then fetches only what is new and shows what changed.'
                }
              >
                {presets.length === 0 && (
                  <EmptyState.Actions>
                    <Button
                      variant="default"
                      leftSection={<IconSearch size={16} stroke={1.6} />}
                      data-testid="watch-go-search"
                      onClick={() => useSessionStore.getState().navigate('search')}
                    >
                      Go to Search
                    </Button>
                  </EmptyState.Actions>
                )}
              </EmptyState>
            )}
            {detail && (
              <Stack gap="lg" data-testid="watch-detail">
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Title order={2} fz="xl" data-testid="watch-name">
                      {detail.name}
                    </Title>
                    <Text c="dimmed" fz="sm">
                      {detail.query} · each refresh fetches again the last {detail.overlapDays} days
                    </Text>
                  </Stack>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      variant="default"
                      size="xs"
                      onClick={openInLibrary}
                      data-testid="watch-open-library"
                    >
                      Open in Library
                    </Button>
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      onClick={() => void remove()}
                      data-testid="watch-delete"
                    >
                      Stop watching
                    </Button>
                  </Group>
                </Group>
                {outcome && (
                  <Text fz="sm" data-testid="watch-outcome">
                    {outcome}
                  </Text>
                )}
                <Table striped withTableBorder fz="sm" data-testid="watch-snapshots">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Snapshot</Table.Th>
                      <Table.Th>Taken</Table.Th>
                      <Table.Th ta="right">Records</Table.Th>
                      <Table.Th ta="right">New</Table.Th>
                      <Table.Th ta="right">Gone</Table.Th>
                      <Table.Th>Newest record</Table.Th>
                      <Table.Th ta="right">Downloads</Table.Th>
                      <Table.Th>Completeness</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {[...detail.snapshots].reverse().map((s) => (
                      <Table.Tr key={s.no} data-testid="watch-snapshot-row">
                        <Table.Td>{s.no}</Table.Td>
                        <Table.Td>{formatMoment(s.takenAt)}</Table.Td>
                        <Table.Td ta="right">{n(s.records)}</Table.Td>
                        <Table.Td ta="right">{n(s.added)}</Table.Td>
                        <Table.Td ta="right">{n(s.lost)}</Table.Td>
                        <Table.Td>{s.newestDate ?? '—'}</Table.Td>
                        <Table.Td ta="right">{n(s.downloads)}</Table.Td>
                        <Table.Td>
                          {s.status === 'complete' ? (
                            <Badge color="teal" variant="light" size="sm">
                              Complete
                            </Badge>
                          ) : (
                            <Badge color="yellow" variant="light" size="sm" title={s.incomplete.join(', ')}>
                              Incomplete: {s.incomplete.join(', ')}
                            </Badge>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                <ChangesPanel />
              </Stack>
            )}
          </ScrollArea>
        </Box>
      </Group>
      <RefreshDialog />
    </Page>
  );
}
