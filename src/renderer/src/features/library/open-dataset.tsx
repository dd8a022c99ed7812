import { useCallback, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  CloseButton,
  Collapse,
  Group,
  Menu,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconHistory } from '@tabler/icons-react';
import type { DatasetView } from '@shared/library/library-contract';
import { MAX_NAME_LENGTH, MAX_NOTES_LENGTH } from '@shared/library/dataset-fields';
import { ErrorMessage } from '../../components/error-message';
import { useQuickFilter } from '../../components/grid/quick-filter-store';
import { QuickFilterInput } from '../../components/grid/quick-filter-input';
import { ExportButton } from '../export';
import { WatchDatasetButton } from '../watch';
import { DatasetGrid, type DatasetGridView } from './dataset-grid';
import { ageOf, describeRows } from './dataset-list';
import { useLibraryStore, type EditField, type OpenRequest } from './library-store';
import { useSavedDraft } from './use-saved-draft';

const ICON = { size: 16, stroke: 1.6 } as const;
const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/** The last save's outcome for one field, as that field's error or a quiet "saved". */
function useFieldNotice(id: string, field: EditField): { ok: boolean; text: string } | null {
  return useLibraryStore((s) =>
    s.editNotice?.id === id && s.editNotice.field === field ? s.editNotice : null,
  );
}

function FieldNotice({ id, field }: { id: string; field: EditField }) {
  const notice = useFieldNotice(id, field);
  if (!notice) return null;
  return (
    <Text
      id={`library-${field}-message`}
      role={notice.ok ? 'status' : 'alert'}
      data-testid={`library-${field}-message`}
      data-ok={notice.ok}
      fz="xs"
      c={notice.ok ? 'green' : 'red'}
    >
      {notice.text}
    </Text>
  );
}

/** Name, tags and notes of the open dataset; each saved on its own (Enter or its button). */
function DatasetEditor({ d }: { d: DatasetView }) {
  const { rename, setTags, setNotes, clearEditNotice } = useLibraryStore.getState();
  const failed = useLibraryStore((s) =>
    s.editNotice?.id === d.id && !s.editNotice.ok ? s.editNotice.field : null,
  );
  const name = useSavedDraft(d.name);
  const tags = useSavedDraft(d.tags.join(', '));
  const notes = useSavedDraft(d.notes);
  return (
    <SimpleGrid cols={{ base: 2, xl: 3 }} spacing="sm" data-testid="library-editor">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          name.submit();
          void rename(d.id, name.value);
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="Name"
            flex={1}
            value={name.value}
            maxLength={MAX_NAME_LENGTH}
            data-testid="library-rename-input"
            error={failed === 'name'}
            aria-describedby="library-name-message"
            onChange={(e) => {
              name.change(e.currentTarget.value);
              clearEditNotice('name');
            }}
          />
          <Button
            type="submit"
            variant="default"
            data-testid="library-rename-save"
            disabled={!name.value.trim() || name.value.trim() === d.name}
          >
            Rename
          </Button>
        </Group>
        <FieldNotice id={d.id} field="name" />
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          tags.submit();
          void setTags(d.id, tags.value);
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="Tags"
            flex={1}
            value={tags.value}
            placeholder="steel, q1"
            data-testid="library-tags-input"
            error={failed === 'tags'}
            aria-describedby="library-tags-message"
            onChange={(e) => {
              tags.change(e.currentTarget.value);
              clearEditNotice('tags');
            }}
          />
          <Button type="submit" variant="default" data-testid="library-tags-save">
            Save tags
          </Button>
        </Group>
        <FieldNotice id={d.id} field="tags" />
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          notes.submit();
          void setNotes(d.id, notes.value);
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Textarea
            label="Notes"
            flex={1}
            rows={1}
            value={notes.value}
            maxLength={MAX_NOTES_LENGTH}
            data-testid="library-notes-input"
            error={failed === 'notes'}
            aria-describedby="library-notes-message"
            onChange={(e) => {
              notes.change(e.currentTarget.value);
              clearEditNotice('notes');
            }}
          />
          <Button type="submit" variant="default" data-testid="library-notes-save">
            Save notes
          </Button>
        </Group>
        <FieldNotice id={d.id} field="notes" />
      </form>
    </SimpleGrid>
  );
}

/** The open dataset's history: every fetch of its query, newest first; picking one opens it. */
function VersionsMenu({ d }: { d: DatasetView }) {
  const versions = useLibraryStore((s) => s.versions);
  const openDataset = useLibraryStore((s) => s.openDataset);
  if (versions.length < 2) return null;
  const at = versions.findIndex((v) => v.id === d.id);
  const number = at < 0 ? null : versions.length - at;
  return (
    <Menu position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconHistory size={14} stroke={1.6} />}
          data-testid="library-history"
          data-version={number ?? ''}
          data-versions={versions.length}
        >
          {number === versions.length ? 'Latest' : `Version ${number ?? '?'}`} of {versions.length}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="library-history-list">
        <Menu.Label>Fetches of this query</Menu.Label>
        {versions.map((v, i) => (
          <Menu.Item
            key={v.id}
            data-testid={`library-version-${v.id}`}
            data-current={v.id === d.id || undefined}
            onClick={() => openDataset(v.id)}
            rightSection={
              <Text fz="xs" c="dimmed">
                {describeRows(v)}
              </Text>
            }
          >
            <Text fz="sm" fw={v.id === d.id ? 600 : 400}>
              {`Version ${versions.length - i}`} · {new Date(v.fetchedAt).toLocaleString('en-GB')}
              {i === 0 ? ' (latest)' : ''}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The open dataset's header: its name and facts on one line; name, tags and notes under a toggle. */
function DatasetHeader({
  d,
  open,
  view,
  viewRows,
}: {
  d: DatasetView;
  open: OpenRequest;
  view: DatasetGridView | null;
  viewRows: number | null;
}) {
  const headerOpen = useLibraryStore((s) => s.headerOpen);
  const { toggleHeader, closeDataset } = useLibraryStore.getState();
  const facts = [
    d.query && d.query !== d.name ? d.query : null,
    `${d.source === 'import' ? 'imported' : 'fetched'} ${ageOf(d.fetchedAt)}`,
    d.profileName ? `${d.profileName}${d.account ? ` / ${d.account}` : ''}` : null,
  ].filter((x): x is string => x !== null);
  return (
    <Paper p="sm" data-testid="library-header" data-open={headerOpen} style={{ flexShrink: 0 }}>
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap">
          <Tooltip label={headerOpen ? 'Hide name, tags and notes' : 'Edit name, tags and notes'}>
            <ActionIcon
              aria-label={headerOpen ? 'Hide name, tags and notes' : 'Edit name, tags and notes'}
              aria-expanded={headerOpen}
              data-testid="library-header-toggle"
              onClick={() => toggleHeader()}
            >
              {headerOpen ? <IconChevronDown {...ICON} /> : <IconChevronRight {...ICON} />}
            </ActionIcon>
          </Tooltip>
          <Box miw={0} flex={1}>
            {/* A long name wraps onto a second line rather than being cut at a narrow window; past
                that, the tooltip has it whole. The size and facts sit under it, not beside it with the
                actions, so that at 1024 px the name keeps room enough not to break inside a word. */}
            <Title
              order={2}
              lineClamp={2}
              style={{ overflowWrap: 'anywhere' }}
              data-testid="library-detail-name"
              title={d.name}
            >
              {d.name}
            </Title>
            <Group gap={6} wrap="wrap" data-testid="library-detail-facts">
              {/* One line of facts, the size first: "4 rows · Shipments · HS 8471 · fetched …", never
                  "4 rows Shipments" side by side; a long line is cut at its end, the size kept. */}
              <Text
                fz="xs"
                c="dimmed"
                miw={0}
                style={ellipsis}
                title={[describeRows(d), ...facts].join(' · ')}
                data-testid="library-detail-line"
              >
                <span data-testid="library-detail-rows">{describeRows(d)}</span>
                {facts.length > 0 ? ` · ${facts.join(' · ')}` : ''}
              </Text>
              {d.status === 'partial' && (
                <Badge size="sm" variant="light" color="orange" tt="none" style={{ flexShrink: 0 }}>
                  partial
                </Badge>
              )}
              {d.tags.length > 0 && !headerOpen && (
                <Text fz="xs" c="dimmed" maw={200} style={ellipsis} title={d.tags.join(', ')}>
                  {d.tags.join(', ')}
                </Text>
              )}
            </Group>
          </Box>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <VersionsMenu d={d} />
            <WatchDatasetButton d={d} />
            <span data-testid="library-export-slot" data-view-columns={view?.columns.length ?? 0}>
              <ExportButton
                source={{ datasetId: d.id, ...(view ? { view } : {}) }}
                suggestedName={d.name}
                counts={{ viewRows, storedRows: d.storedRows }}
              />
            </span>
            <CloseButton aria-label="Close the dataset" data-testid="library-close" onClick={closeDataset} />
          </Group>
        </Group>
        {open.label && (
          <Text fz="xs" data-testid="library-drill-label">
            Filtered: {open.label}
          </Text>
        )}
        <Collapse expanded={headerOpen}>
          {headerOpen && (
            // Keyed by the saved values: after a save (or a change elsewhere) the fields show what is stored.
            <DatasetEditor key={d.id} d={d} />
          )}
        </Collapse>
      </Stack>
    </Paper>
  );
}

/** The open dataset: its header, then its grid taking what is left of the window. */
export function OpenDataset() {
  const open = useLibraryStore((s) => s.open);
  // A new open (another dataset, or the same one with a drill filter) starts from a clean view.
  return open ? <OpenDatasetBody key={`${open.id}:${open.seq}`} open={open} /> : null;
}

function OpenDatasetBody({ open }: { open: OpenRequest }) {
  const openMeta = useLibraryStore((s) => s.openMeta);
  const closeDataset = useLibraryStore((s) => s.closeDataset);
  // Kept while this open lasts (a page change and back), not across another open of it.
  const quickKey = `library:${open.id}:${open.seq}`;
  const [quick] = useQuickFilter(quickKey);
  const [view, setView] = useState<DatasetGridView | null>(null);
  const [viewRows, setViewRows] = useState<number | null>(null);
  const [gridError, setGridError] = useState<string | null>(null);
  const onError = useCallback((m: string | null) => setGridError(m), []);
  // Looked up by id, not in the list: filtering the list must not close the open dataset.
  const d = openMeta?.dataset?.id === open.id ? openMeta.dataset : null;
  if (!d) {
    return (
      <Paper
        p="md"
        flex={1}
        miw={0}
        data-testid="library-open-state"
        data-state={openMeta?.state ?? 'loading'}
      >
        <Stack gap="sm" align="flex-start">
          {openMeta?.state === 'missing' ? (
            <Text data-testid="library-open-missing">
              That dataset is no longer in the library (it was deleted).
            </Text>
          ) : openMeta?.error ? (
            <ErrorMessage error={openMeta.error} testId="library-open-error" />
          ) : (
            <Text c="dimmed">Opening…</Text>
          )}
          <Button variant="default" data-testid="library-close" onClick={closeDataset}>
            Close
          </Button>
        </Stack>
      </Paper>
    );
  }
  return (
    <Stack
      gap="sm"
      flex={1}
      miw={0}
      mih={0}
      component="section"
      data-testid="library-detail"
      data-dataset-id={d.id}
    >
      <DatasetHeader d={d} open={open} view={view} viewRows={viewRows} />
      {gridError && (
        <Text role="alert" c="red" fz="sm" data-testid="library-grid-error">
          {gridError}
        </Text>
      )}
      <DatasetGrid
        key={`${d.id}:${open.seq}`}
        datasetId={d.id}
        kind={d.kind}
        extraColumns={d.extraColumns ?? []}
        extraColumnTypes={d.extraColumnTypes ?? {}}
        missingFields={d.missingFields ?? []}
        storedRows={d.storedRows}
        quickFilter={quick}
        initialFilterModel={open.filterModel}
        onView={setView}
        onRowCount={setViewRows}
        onError={onError}
        height="fill"
        toolbarStart={
          <QuickFilterInput
            gridKey={quickKey}
            testId="library-quick-filter"
            placeholder="Quick filter (all rows, in the library)"
            width={300}
          />
        }
      />
    </Stack>
  );
}
