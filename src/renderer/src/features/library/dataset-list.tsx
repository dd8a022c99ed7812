import { useEffect, useRef, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  CloseButton,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconBuildingFactory2,
  IconDots,
  IconPackage,
  IconSearch,
  IconTag,
  IconTrash,
} from '@tabler/icons-react';
import type { DatasetView } from '@shared/library/library-contract';
import { describeAge } from '../../components/format';
import { useLibraryStore, type LibraryEntry } from './library-store';

const ICON = { size: 14, stroke: 1.6 } as const;
const fmt = (n: number) => n.toLocaleString('en-US');
export const ageOf = (iso: string) => describeAge(Math.max(0, (Date.now() - Date.parse(iso)) / 1000));
const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/** "100 rows" or "100 of 3,000 rows": what is stored against what the service reported. */
export function describeRows(d: Pick<DatasetView, 'storedRows' | 'reportedTotal'>): string {
  const of =
    d.reportedTotal !== null && d.reportedTotal !== d.storedRows ? ` of ${fmt(d.reportedTotal)}` : '';
  return `${fmt(d.storedRows)}${of} ${d.storedRows === 1 && !of ? 'row' : 'rows'}`;
}

/** The list's delete: asks first, names what goes (every version), Escape or Keep cancels. */
function DeleteConfirm({ entry }: { entry: LibraryEntry }) {
  const d = entry.dataset;
  const { cancelDelete, removeAllVersions } = useLibraryStore.getState();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      opened
      onClose={cancelDelete}
      title={`Delete “${d.name.slice(0, 80)}”?`}
      data-testid={`library-delete-confirm-box-${d.id}`}
      size="sm"
    >
      <Stack gap="md">
        <Text fz="sm">
          {entry.versions > 1
            ? `All ${entry.versions} versions of this dataset and their rows are deleted for good.`
            : 'The dataset and its rows are deleted for good.'}
        </Text>
        {error && (
          <Text c="red" fz="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            data-testid={`library-delete-cancel-${d.id}`}
            onClick={cancelDelete}
            data-autofocus
          >
            Keep
          </Button>
          <Button
            color="red"
            variant="light"
            loading={busy}
            leftSection={<IconTrash size={16} stroke={1.6} />}
            data-testid={`library-delete-confirm-${d.id}`}
            onClick={() => {
              setBusy(true);
              void removeAllVersions(d.id).then((e) => {
                setBusy(false);
                if (e) setError(e.message);
              });
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function EntryRow({ entry, selected }: { entry: LibraryEntry; selected: boolean }) {
  const d = entry.dataset;
  const { openDataset, askDelete } = useLibraryStore.getState();
  const confirming = useLibraryStore((s) => s.confirmingDelete === d.id);
  const menuRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // The confirmation closes by going away, and the menu item that opened it is gone with its menu:
  // Keep or Escape puts the focus back on the row's menu button, where the analyst was.
  useEffect(() => {
    if (wasConfirming.current && !confirming) menuRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  return (
    <Box
      component="li"
      data-testid={`library-row-${d.id}`}
      data-name={d.name}
      data-kind={d.kind}
      data-versions={entry.versions}
      aria-selected={selected}
      px={6}
      py={4}
      style={{
        listStyle: 'none',
        borderRadius: 'var(--mantine-radius-sm)',
        background: selected ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Group gap={4} wrap="nowrap" align="flex-start">
        <UnstyledButton
          data-testid={`library-open-${d.id}`}
          onClick={() => openDataset(d.id)}
          title={d.name}
          flex={1}
          miw={0}
        >
          <Text fz="sm" fw={selected ? 600 : 500} style={ellipsis}>
            {d.name}
          </Text>
          {d.query && d.query !== d.name && (
            <Text fz="xs" c="dimmed" style={ellipsis} data-testid={`library-query-${d.id}`} title={d.query}>
              {d.query}
            </Text>
          )}
          <Group gap={6} wrap="wrap" mt={2}>
            <Tooltip label={d.kind === 'firms' ? 'Firms' : 'Shipments'} openDelay={400}>
              <Box
                c="dimmed"
                aria-label={d.kind === 'firms' ? 'Firms' : 'Shipments'}
                data-testid={`library-kind-${d.id}`}
                style={{ display: 'flex', flexShrink: 0 }}
              >
                {d.kind === 'firms' ? <IconBuildingFactory2 {...ICON} /> : <IconPackage {...ICON} />}
              </Box>
            </Tooltip>
            <Text fz="xs" c="dimmed" miw={0} style={ellipsis} title={`${d.fetchedAt} · ${describeRows(d)}`}>
              {ageOf(d.fetchedAt)} ·{' '}
              <span
                data-testid={`library-rows-${d.id}`}
                data-stored={d.storedRows}
                data-total={d.reportedTotal ?? ''}
              >
                {describeRows(d)}
              </span>
              {d.source === 'import' ? ' · imported' : ''}
            </Text>
            {d.status === 'partial' && (
              <Badge
                size="xs"
                color="orange"
                variant="light"
                tt="none"
                data-testid={`library-status-${d.id}`}
                style={{ flexShrink: 0 }}
              >
                partial
              </Badge>
            )}
            {entry.versions > 1 && (
              <Badge
                size="xs"
                variant="light"
                tt="none"
                data-testid={`library-versions-${d.id}`}
                style={{ flexShrink: 0 }}
              >
                {entry.versions} versions
              </Badge>
            )}
          </Group>
          {d.tags.length > 0 && (
            <Group gap={4} wrap="nowrap" mt={2}>
              <IconTag size={12} stroke={1.6} style={{ flexShrink: 0 }} />
              <Text fz="xs" c="dimmed" data-testid={`library-tags-${d.id}`} style={ellipsis}>
                {d.tags.join(', ')}
              </Text>
            </Group>
          )}
        </UnstyledButton>
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <Tooltip label={`Actions for ${d.name}`}>
              <ActionIcon
                ref={menuRef}
                size="sm"
                aria-label={`Actions for ${d.name}`}
                data-testid={`library-menu-${d.id}`}
              >
                <IconDots {...ICON} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              color="red"
              leftSection={<IconTrash {...ICON} />}
              data-testid={`library-delete-${d.id}`}
              onClick={() => askDelete(d.id)}
            >
              {entry.versions > 1 ? `Delete all ${entry.versions} versions…` : 'Delete…'}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      {confirming && <DeleteConfirm entry={entry} />}
    </Box>
  );
}

/** The side list: search by name, notes or tag, narrow by kind or tag; one entry per dataset. */
export function DatasetList() {
  const query = useLibraryStore((s) => s.query);
  const entries = useLibraryStore((s) => s.entries);
  const status = useLibraryStore((s) => s.status);
  const openId = useLibraryStore((s) => s.open?.id ?? null);
  const versions = useLibraryStore((s) => s.versions);
  const { setQuery } = useLibraryStore.getState();
  // The open dataset's entry stays selected when an older version of it is open.
  const openIds = new Set([openId, ...versions.map((v) => v.id)]);
  const narrowed = Boolean(query.search || query.kind || query.tag);
  return (
    <Paper component="aside" data-testid="library-list-panel" p="sm" flex={1} mih={0}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="md">
            Datasets
          </Title>
          {status === 'loading' && <Loader size="xs" />}
          <Text fz="xs" c="dimmed" data-testid="library-count">
            {fmt(entries.length)}
          </Text>
        </Group>
        <TextInput
          size="xs"
          value={query.search}
          placeholder="Search names, notes, tags"
          aria-label="Search datasets"
          data-testid="library-search"
          leftSection={<IconSearch {...ICON} />}
          rightSection={
            query.search ? (
              <CloseButton size="sm" aria-label="Clear the search" onClick={() => setQuery({ search: '' })} />
            ) : null
          }
          onChange={(e) => setQuery({ search: e.currentTarget.value })}
        />
        <Group gap="xs" wrap="nowrap">
          <SegmentedControl
            size="xs"
            flex={1}
            aria-label="Kind"
            data-testid="library-kind"
            value={query.kind || 'all'}
            data={[
              { value: 'all', label: 'All' },
              { value: 'shipments', label: 'Shipments' },
              { value: 'firms', label: 'Firms' },
            ]}
            onChange={(v) => setQuery({ kind: v === 'shipments' || v === 'firms' ? v : '' })}
          />
          <TextInput
            size="xs"
            w={84}
            value={query.tag}
            placeholder="Tag"
            aria-label="Tag"
            data-testid="library-tag-filter"
            onChange={(e) => setQuery({ tag: e.currentTarget.value })}
          />
        </Group>
        {status === 'ready' && entries.length === 0 ? (
          <Text fz="sm" c="dimmed" data-testid="library-empty" py="sm">
            {narrowed
              ? 'No dataset matches.'
              : // The page beside the list says what fills it; the list does not repeat it.
                'No datasets yet.'}
          </Text>
        ) : (
          <ScrollArea flex={1} mih={0} type="auto" offsetScrollbars>
            <Stack component="ul" gap={2} m={0} p={0} data-testid="library-list">
              {entries.map((e) => (
                <EntryRow key={e.dataset.id} entry={e} selected={openIds.has(e.dataset.id)} />
              ))}
            </Stack>
          </ScrollArea>
        )}
      </Stack>
    </Paper>
  );
}
