import { COUNT, formatNumber } from '@shared/fields';
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  CloseButton,
  FileButton,
  Group,
  List,
  Menu,
  Modal,
  Pill,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowBackUp,
  IconDownload,
  IconFileImport,
  IconGitMerge,
  IconListCheck,
  IconSearch,
} from '@tabler/icons-react';
import { Page, PageHeader } from '../../components/page';
import { ErrorMessage } from '../../components/error-message';
import { selectReviewCount, useResolutionStore } from '../../session';
import { FirmDetail } from './firm-detail';
import { FirmList } from './firm-list';
import { FirmSearchView } from './firm-search-view';
import { ReviewView } from './review-view';
import { firmRows, mergeReason, useResolvedFirmsStore, type FirmsTab } from './resolved-firms-store';

const fmt = (n: number): string => formatNumber(n, COUNT);
const WHOLE_LIBRARY = '';

/**
 * Firms: the library's firms as analysts mean them (every spelling of a firm as one, with the evidence
 * that joined them), the review queue of close calls, and the service's firm search.
 */
export function FirmsPage() {
  const tab = useResolvedFirmsStore((s) => s.tab);
  const review = useResolutionStore(selectReviewCount);
  const { setTab } = useResolvedFirmsStore.getState();

  useEffect(() => {
    void useResolvedFirmsStore.getState().loadScopes();
  }, []);

  return (
    <Page testId="firms-page" layout="fill" data-tab={tab}>
      <PageHeader
        title="Firms"
        description={
          tab === 'search'
            ? 'Firms the service knows, by the filter (each page is a request and is kept in the Library).'
            : 'Every spelling of a firm in your library as one firm, with the evidence that joined them.'
        }
        actions={tab === 'firms' ? <FirmsActions /> : null}
      />
      <Tabs value={tab} onChange={(v) => v && setTab(v as FirmsTab)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="firms" data-testid="firms-tab-firms">
            Firms in the library
          </Tabs.Tab>
          <Tabs.Tab
            value="review"
            data-testid="firms-tab-review"
            rightSection={
              review ? (
                <Badge size="sm" variant="light" circle={review < 10} data-testid="firms-tab-review-count">
                  {fmt(review)}
                </Badge>
              ) : null
            }
          >
            Review queue
          </Tabs.Tab>
          <Tabs.Tab value="search" data-testid="firms-tab-search">
            Firm search (service)
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'firms' && <LibraryFirms />}
      {tab === 'review' && (
        <Box flex={1} mih={0}>
          <ReviewView />
        </Box>
      )}
      {tab === 'search' && (
        <Box flex={1} mih={0}>
          <FirmSearchView />
        </Box>
      )}
    </Page>
  );
}

/** The header's actions on the library's firms: the alias list, and the one primary action, Merge. */
function FirmsActions() {
  const marked = useResolvedFirmsStore((s) => s.marked);
  const busy = useResolvedFirmsStore((s) => s.busy);
  const { askMerge, exportAliases, importAliases } = useResolvedFirmsStore.getState();
  const why = mergeReason(marked);
  const reset = useRef<() => void>(null);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" data-testid="firms-alias-menu">
            Alias list
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Your decisions as a file (names and codes only)</Menu.Label>
          <Menu.Item
            leftSection={<IconDownload size={16} stroke={1.6} />}
            data-testid="firms-alias-export"
            onClick={() => void exportAliases()}
          >
            Export alias list…
          </Menu.Item>
          <FileButton
            resetRef={reset}
            accept="application/json,.json"
            onChange={(file) => {
              if (file) void importAliases(file).then(() => reset.current?.());
            }}
          >
            {(props) => (
              <Menu.Item
                {...props}
                leftSection={<IconFileImport size={16} stroke={1.6} />}
                data-testid="firms-alias-import"
              >
                Import alias list…
              </Menu.Item>
            )}
          </FileButton>
        </Menu.Dropdown>
      </Menu>
      <Tooltip label={why ?? 'Make the ticked firms one firm'}>
        <Button
          leftSection={<IconGitMerge size={16} stroke={1.6} />}
          data-testid="firms-merge"
          disabled={why !== null || busy}
          onClick={askMerge}
        >
          {marked.length >= 2 ? `Merge ${marked.length} firms…` : 'Merge firms…'}
        </Button>
      </Tooltip>
    </>
  );
}

/** The library's firms: filters, the list beside the open firm, the last change with its undo. */
function LibraryFirms() {
  const scopes = useResolvedFirmsStore((s) => s.scopes);
  const datasetId = useResolvedFirmsStore((s) => s.datasetId);
  const mergedOnly = useResolvedFirmsStore((s) => s.mergedOnly);
  const listError = useResolvedFirmsStore((s) => s.listError);
  const { setScope, setMergedOnly, closeFirm } = useResolvedFirmsStore.getState();
  return (
    <Stack
      flex={1}
      mih={0}
      gap="sm"
      onKeyDown={(e) => {
        // Escape closes the open firm, unless a field, a menu or a dialog takes it for itself.
        const t = e.target as HTMLElement;
        if (
          e.key === 'Escape' &&
          !e.defaultPrevented &&
          !t.closest('input, textarea, [role="dialog"], [role="menu"], [role="listbox"]')
        )
          closeFirm();
      }}
    >
      <Group gap="sm" wrap="wrap" align="flex-end">
        <FirmSearchBox />
        <Select
          aria-label="Firms of"
          data-testid="firms-scope"
          w={240}
          allowDeselect={false}
          value={datasetId ?? WHOLE_LIBRARY}
          onChange={(v) => setScope(v ? v : null)}
          data={[
            { value: WHOLE_LIBRARY, label: 'The whole library' },
            ...scopes.map((s) => ({ value: s.id, label: s.name })),
          ]}
          searchable
        />
        <Checkbox
          label="Only firms written several ways"
          data-testid="firms-merged-only"
          checked={mergedOnly}
          onChange={(e) => setMergedOnly(e.currentTarget.checked)}
          mb={8}
        />
      </Group>
      <MarkedFirms />
      <LastChangeBar />
      <AliasNotice />
      {listError && (
        <Group gap="sm" align="center" wrap="nowrap">
          <Box flex={1} miw={0}>
            <ErrorMessage error={listError} testId="firms-list-error" />
          </Box>
          <Button
            variant="default"
            data-testid="firms-list-retry"
            onClick={() => useResolvedFirmsStore.getState().retryList()}
            style={{ flexShrink: 0 }}
          >
            Retry
          </Button>
        </Group>
      )}
      <Group flex={1} mih={0} gap="md" align="stretch" wrap="nowrap">
        <Box flex={1} miw={0}>
          <FirmList />
        </Box>
        <Box w={{ base: 400, xl: 520 }} style={{ flexShrink: 0 }}>
          <FirmDetail />
        </Box>
      </Group>
      <ConfirmDecision />
    </Stack>
  );
}

/** The firms ticked for a merge, also those the list no longer shows (found by another search). */
function MarkedFirms() {
  const marked = useResolvedFirmsStore((s) => s.marked);
  const { mark, setMarked } = useResolvedFirmsStore.getState();
  if (marked.length === 0) return null;
  return (
    <Group gap="xs" wrap="wrap" data-testid="firms-marked">
      <Text fz="sm" c="dimmed">
        To merge:
      </Text>
      {marked.map((f) => (
        <Pill
          key={f.firmId}
          withRemoveButton
          onRemove={() => mark(f, false)}
          removeButtonProps={{ 'aria-label': `Untick ${f.name}` }}
          data-testid="firms-marked-firm"
        >
          {f.name} ({f.countryName ?? f.country})
        </Pill>
      ))}
      <Button size="xs" variant="subtle" onClick={() => setMarked([])} data-testid="firms-marked-clear">
        Untick all
      </Button>
    </Group>
  );
}

/** The search box: what is typed is kept as typed, the list follows after a short pause. */
function FirmSearchBox() {
  const search = useResolvedFirmsStore((s) => s.search);
  const [text, setText] = useState(search);
  useEffect(() => {
    const t = setTimeout(() => useResolvedFirmsStore.getState().setSearch(text), 250);
    return () => clearTimeout(t);
  }, [text]);
  return (
    <TextInput
      aria-label="Find a firm"
      placeholder="Find a firm by any spelling or firm code"
      data-testid="firms-search"
      leftSection={<IconSearch size={16} stroke={1.6} />}
      w={320}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') useResolvedFirmsStore.getState().setSearch(text);
        if (e.key === 'Escape') setText('');
      }}
    />
  );
}

/** The last merge, split or undo, said once, with the way back. */
function LastChangeBar() {
  const last = useResolvedFirmsStore((s) => s.lastChange);
  const busy = useResolvedFirmsStore((s) => s.busy);
  const actionError = useResolvedFirmsStore((s) => s.actionError);
  const pending = useResolvedFirmsStore((s) => s.pending);
  const { undoLast, dismissLast } = useResolvedFirmsStore.getState();
  return (
    <>
      {actionError && !pending && <ErrorMessage error={actionError} testId="firms-action-error" />}
      {last && (
        <Alert color="green" variant="light" p="xs" data-testid="firms-last-change">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
              {last.label}. Analysis and the grids count the firms this way now.
            </Text>
            <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconArrowBackUp size={16} stroke={1.6} />}
                disabled={busy}
                data-testid="firms-undo"
                onClick={() => void undoLast()}
              >
                Undo
              </Button>
              <CloseButton size="sm" aria-label="Dismiss" onClick={dismissLast} />
            </Group>
          </Group>
        </Alert>
      )}
    </>
  );
}

function AliasNotice() {
  const notice = useResolvedFirmsStore((s) => s.aliasNotice);
  if (!notice) return null;
  return (
    <Alert
      color={notice.ok ? 'green' : 'red'}
      variant="light"
      p="xs"
      data-testid="firms-alias-notice"
      data-ok={notice.ok ? 'true' : 'false'}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {notice.text}
        </Text>
        <CloseButton
          size="sm"
          aria-label="Dismiss"
          onClick={() => useResolvedFirmsStore.getState().dismissAliasNotice()}
        />
      </Group>
    </Alert>
  );
}

/** The merge or split waiting for the analyst's word, naming what will change. */
function ConfirmDecision() {
  const pending = useResolvedFirmsStore((s) => s.pending);
  const busy = useResolvedFirmsStore((s) => s.busy);
  const actionError = useResolvedFirmsStore((s) => s.actionError);
  const { cancelPending, confirmPending } = useResolvedFirmsStore.getState();
  const merge = pending?.kind === 'merge';
  const countries = merge ? new Set(pending.firms.map((f) => f.countryName ?? f.country)) : new Set();
  return (
    <Modal
      opened={pending !== null}
      onClose={cancelPending}
      title={
        merge
          ? `Merge ${pending.firms.length} firms into one?`
          : 'Split spellings off into a firm of their own?'
      }
      data-testid="firms-confirm"
      centered
    >
      {pending && (
        <Stack gap="sm">
          {pending.kind === 'merge' ? (
            <>
              <Text fz="sm">These firms become one firm, named after the one with the most shipments:</Text>
              <List fz="sm" spacing={2}>
                {[...pending.firms]
                  .sort((a, b) => firmRows(b) - firmRows(a))
                  .map((f) => (
                    <List.Item key={f.firmId}>
                      {f.name} ({f.countryName ?? f.country}, {fmt(f.spellings)}{' '}
                      {f.spellings === 1 ? 'spelling' : 'spellings'}, {fmt(f.asImporter + f.asExporter)}{' '}
                      shipments)
                    </List.Item>
                  ))}
              </List>
              {countries.size > 1 && (
                <Alert color="orange" variant="light" p="xs" data-testid="firms-confirm-countries">
                  They are in different countries ({[...countries].join(', ')}).
                </Alert>
              )}
            </>
          ) : (
            <>
              <Text fz="sm">These spellings leave “{pending.firm.name}” and become a firm of their own:</Text>
              <List fz="sm" spacing={2}>
                {pending.spellings.map((s) => (
                  <List.Item key={s.partyId}>{s.name}</List.Item>
                ))}
              </List>
            </>
          )}
          <Text fz="sm" c="dimmed">
            Kept as your decision across new data and restarts; Analysis and the grids follow at once. You can
            undo it.
          </Text>
          {actionError && <ErrorMessage error={actionError} testId="firms-confirm-error" />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={cancelPending} disabled={busy}>
              Cancel
            </Button>
            <Button
              data-autofocus
              loading={busy}
              data-testid="firms-confirm-ok"
              leftSection={
                merge ? <IconGitMerge size={16} stroke={1.6} /> : <IconListCheck size={16} stroke={1.6} />
              }
              onClick={() => void confirmPending()}
            >
              {merge ? 'Merge firms' : 'Split off'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
