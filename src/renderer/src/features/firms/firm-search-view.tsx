import { COUNT, formatNumber } from '@shared/fields';
import { useEffect, useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Divider,
  Group,
  Kbd,
  Loader,
  NumberInput,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconBuildingWarehouse, IconInfoCircle, IconSearchOff } from '@tabler/icons-react';
import type { ColDef, GridApi, ICellRendererParams } from 'ag-grid-community';
import type { FirmRecord, ShipmentFilter } from '@shared/spec';
import { CancelButton } from '../../components/cancel-button';
import { CancelledNotice } from '../../components/cancelled-notice';
import { PreviousResultNote } from '../../components/previous-result-note';
import { useEscapeCancels } from '../../components/use-escape-cancel';
import { ErrorMessage } from '../../components/error-message';
import { SearchEmptyState } from '../../components/search-empty-state';
import { FilterForm, FilterScroll } from '../filters';
import { useFilter } from '../filters';
import { RunButton, RunReason } from '../filters';
import { PresetsPanel } from '../presets';
import { ColumnChooser } from '../../components/grid/column-chooser';
import { DataGrid } from '../../components/grid/data-grid';
import { useQuickFilter } from '../../components/grid/quick-filter-store';
import { QuickFilterInput } from '../../components/grid/quick-filter-input';
import { describeMetric, useAccountContext, useUsageStore } from '../../session';
import { useJobsStore } from '../jobs';
import { firmSearchFilter, openShipmentsOf, type PartyRole } from '../search';
import {
  checkPageJump,
  describeFirmCount,
  describeFirmPage,
  firmsCheckOf,
  firmsNothingMatched,
  useFirmsStore,
} from './firms-store';
import { firmColumnDefs } from '../../components/grid/firm-columns';

const fmt = (n: number): string => formatNumber(n, COUNT);
const QUICK_KEY = 'firms';

function FirmActions(
  p: ICellRendererParams<FirmRecord> & { role: PartyRole | null; within: ShipmentFilter | null },
) {
  if (!p.data) return null;
  const name = p.data.name;
  const i = p.node.rowIndex ?? 0;
  const roles: PartyRole[] = p.role ? [p.role] : ['importer', 'exporter'];
  return (
    <Group gap={2} wrap="nowrap" h="100%">
      {roles.map((role) => (
        <Button
          key={role}
          size="compact-xs"
          variant="subtle"
          data-testid={`firm-open-${role}-${i}`}
          title={`Search shipments with ${role} name “${name}”`}
          onClick={() => openShipmentsOf(role, name, p.within ? { within: p.within } : {})}
        >
          {p.role ? 'Shipments' : role === 'importer' ? 'As importer' : 'As exporter'}
        </Button>
      ))}
      <Button
        size="compact-xs"
        variant="subtle"
        disabled
        data-testid={`firm-count-${i}`}
        title="A firm record has no firm code, which counting its shipments needs. Count from a shipment's importer or exporter instead (Search → Parties)."
      >
        Count
      </Button>
    </Group>
  );
}

/** The service's firm search with paging, firm count, and the way from a firm to its shipments. */
export function FirmSearchView() {
  const draft = useFilter((s) => s.draft);
  const typed = useFilter((s) => s.typed);
  const refused = useFilter((s) => s.refused);
  const status = useFirmsStore((s) => s.status);
  const result = useFirmsStore((s) => s.result);
  const nothingMatched = useFirmsStore((s) => firmsNothingMatched(s.result));
  const resultRequest = useFirmsStore((s) => s.resultRequest);
  const error = useFirmsStore((s) => s.error);
  const request = useFirmsStore((s) => s.request);
  const count = useFirmsStore((s) => s.count);
  const reusedFrom = useFirmsStore((s) => s.reusedFrom);
  const cancelled = useFirmsStore((s) => s.cancelled);
  const { search, goToPage, countFirms, cancel, showLatePage } = useFirmsStore.getState();
  const askFetchAll = useJobsStore((s) => s.askFetchAll);
  const summary = useUsageStore((s) => s.summary);
  const [quick] = useQuickFilter(QUICK_KEY);
  const [jump, setJump] = useState('');
  const [gridApi, setGridApi] = useState<GridApi<FirmRecord> | null>(null);

  useEffect(() => {
    void useUsageStore.getState().ensureLoaded();
  }, []);

  const accounts = useAccountContext();
  const {
    search: searchCheck,
    count: countCheck,
    hsCodes,
  } = firmsCheckOf(draft, summary, accounts, {
    typed,
    refused,
  });
  // The account charged: the filter's, else the profile's default that main sends.
  const account = draft.account_name.trim() || accounts.defaultAccount;
  // The spec does not say how many firms a page holds, so only the standing of each metric is shown.
  const searchLimit = describeMetric(summary, account, 'firms/search');
  const countLimit = describeMetric(summary, account, 'firms/count');
  const running = status === 'running';
  // Keyboard first: Escape cancels the running search, as Cancel does.
  useEscapeCancels(running, cancel);
  // The rows on screen were listed by resultRequest, not by the form's filter or a later request that failed.
  const role = resultRequest?.search_type ?? null;
  const within = useMemo(() => (resultRequest ? firmSearchFilter(resultRequest) : null), [resultRequest]);

  const columnDefs = useMemo<ColDef<FirmRecord>[]>(
    () => [
      {
        colId: 'actions',
        headerName: '',
        pinned: 'left',
        width: role ? 170 : 250,
        lockVisible: true,
        sortable: false,
        filter: false,
        cellRenderer: FirmActions,
        cellRendererParams: { role, within },
      },
      ...firmColumnDefs(),
    ],
    [role, within],
  );

  // The empty answer says so in its own words (the no-match state); a page of firms gets the note.
  const previous =
    result && !nothingMatched && (status === 'error' || status === 'cancelled') ? status : null;
  const page = result?.page ?? 1;
  const pages = result?.total_pages ?? 0;
  const jumpCheck = checkPageJump(jump, pages);

  return (
    <Group gap="md" align="stretch" wrap="nowrap" h="100%" mih={0} data-testid="firms-search-view">
      <PresetsPanel />
      <Stack gap="sm" flex={1} miw={0} mih={0}>
        <Paper p="sm" data-testid="firms-filter-panel" style={{ flexShrink: 0 }}>
          <Stack gap="xs">
            {/* As on the Search page: the fields scroll inside the panel on a small window, so the run
                bar and the first rows of a result stay in view; before there is a result, they have
                the window's height but for the tabs and the run bar. */}
            <FilterScroll min={190} reserve={result ? 520 : 360} testId="firms-filter-scroll">
              <FilterForm
                validation={searchCheck}
                // Enter runs the firm search exactly when its button could be pressed.
                onSubmit={() => {
                  if (!searchCheck.reason && !running) void search();
                }}
              />
            </FilterScroll>
            <Divider />
            <Group gap="sm" wrap="nowrap" align="center" justify="space-between">
              <Group gap="xs" wrap="wrap" align="center" miw={0}>
                <RunButton
                  testId="firms-count"
                  label="Count firms"
                  primary={false}
                  reason={countCheck.reason}
                  busy={count.status === 'running'}
                  onRun={() => void countFirms()}
                  hideReason
                />
                <Text fz="sm" c="dimmed" data-testid="firms-count-cost" miw={0}>
                  {countLimit.message}
                </Text>
              </Group>
              {/* The search's cost stays on one line beside its button; the count's side gives way (it
                  wraps its cost under Count firms) on a small window. */}
              <Group gap="sm" wrap="nowrap" align="center" style={{ flexShrink: 0 }}>
                <Text
                  fz="sm"
                  c="dimmed"
                  ta="right"
                  data-testid="firms-search-cost"
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {searchLimit.message}
                </Text>
                <RunButton
                  testId="firms-run"
                  label="Search firms"
                  reason={searchCheck.reason}
                  busy={running}
                  onRun={() => void search()}
                  shortcut="Enter · Ctrl+Enter"
                  hideReason
                />
              </Group>
            </Group>
            {hsCodes && (
              <Text
                fz="sm"
                c={hsCodes.state === 'exceeds' ? 'red' : 'dimmed'}
                data-testid="firms-hs-codes"
                data-state={hsCodes.state}
              >
                {hsCodes.message}
              </Text>
            )}
            <RunReason testId="firms-run" reason={searchCheck.reason} />
            {countCheck.reason !== searchCheck.reason && (
              <RunReason testId="firms-count" reason={countCheck.reason} />
            )}
          </Stack>
        </Paper>
        {running && (
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Loader size="xs" data-testid="firms-progress" aria-label="Searching firms" />
            <Text fz="sm">Searching firms…</Text>
            <CancelButton testId="firms-cancel" onCancel={cancel} />
          </Group>
        )}
        {status === 'cancelled' && cancelled && (
          <CancelledNotice
            testId="firms-cancelled"
            request={{ kind: 'firm-page', page: cancelled.page }}
            outcome={
              cancelled.state === 'failed'
                ? { state: 'failed', message: cancelled.error.message }
                : { state: cancelled.state }
            }
            onShow={showLatePage}
          />
        )}
        {(searchLimit.state === 'exceeds' || countLimit.state === 'exceeds') && (
          <Alert color="red" role="alert" p="xs" data-testid="firms-limit-warning" style={{ flexShrink: 0 }}>
            The account has used up its {searchLimit.state === 'exceeds' ? 'firm search' : 'firm count'}{' '}
            limit; the service may refuse this request.
          </Alert>
        )}
        {count.status === 'done' && count.value !== null && (
          <Text
            fz="sm"
            fw={600}
            data-testid="firms-count-result"
            data-count={count.value}
            style={{ flexShrink: 0 }}
          >
            {describeFirmCount(count.value)}
          </Text>
        )}
        {count.error && <ErrorMessage error={count.error} testId="firms-count-error" />}
        {error && <ErrorMessage error={error} testId="firms-error" />}
        {/* After a search that failed or was cancelled, the page on screen answers the one before it. */}
        {previous && <PreviousResultNote testId="firms-result-previous" last={previous} what="firms" />}
        {result && nothingMatched && (
          <Text fw={600} fz="sm" data-testid="firms-summary" data-page={page} data-pages={pages}>
            {describeFirmPage(result)}
          </Text>
        )}
        {result && !nothingMatched && (
          <Group gap="sm" wrap="wrap" align="center" style={{ flexShrink: 0 }}>
            <Text fw={600} fz="sm" data-testid="firms-summary" data-page={page} data-pages={pages}>
              {describeFirmPage(result)}
            </Text>
            <Button.Group>
              <Button
                size="compact-sm"
                h={30}
                variant="default"
                data-testid="firms-prev"
                disabled={running || page <= 1}
                onClick={() => void goToPage(page - 1)}
              >
                ← Previous
              </Button>
              <Button
                size="compact-sm"
                h={30}
                variant="default"
                data-testid="firms-next"
                disabled={running || page >= pages}
                onClick={() => void goToPage(page + 1)}
              >
                Next →
              </Button>
            </Button.Group>
            <form
              noValidate
              style={{ display: 'flex', gap: 6, alignItems: 'center' }}
              onSubmit={(e) => {
                e.preventDefault();
                if (jumpCheck.ok) void goToPage(jumpCheck.page);
              }}
            >
              <NumberInput
                size="xs"
                w={80}
                min={1}
                max={Math.max(1, pages)}
                // Grouped as the page count beside it is ("Page 1 of 1,204"); a page out of range is
                // told at the field, not changed on blur.
                thousandSeparator=","
                clampBehavior="none"
                hideControls
                aria-label="Go to page"
                placeholder="Page"
                value={jump}
                data-testid="firms-page-input"
                error={Boolean(jumpCheck.message)}
                aria-describedby={jumpCheck.message ? 'firms-page-input-error' : undefined}
                onChange={(v) => setJump(String(v))}
              />
              <Button
                type="submit"
                size="compact-sm"
                h={30}
                variant="default"
                data-testid="firms-page-go"
                disabled={running || !jumpCheck.ok}
              >
                Go
              </Button>
              {jumpCheck.message && (
                <Text
                  id="firms-page-input-error"
                  data-testid="firms-page-input-error"
                  role="alert"
                  c="red"
                  fz="sm"
                >
                  {jumpCheck.message}
                </Text>
              )}
            </form>
            {pages > 1 && request && (
              <Button
                size="compact-sm"
                h={30}
                variant="default"
                data-testid="firms-fetch-all"
                onClick={() => void askFetchAll('firms', request, pages)}
              >
                Fetch all {fmt(pages)} pages
              </Button>
            )}
            <Box flex={1} />
            {/* Said on demand, not as a paragraph above the grid: at 1024×700 the grid needs the room. */}
            <Tooltip
              multiline
              w={360}
              withinPortal
              label="Counting a firm's shipments needs its firm code, which firm records do not carry. Use “Parties” on a shipment in Search to count an importer's or exporter's shipments; “Shipments” here searches by the firm's name instead."
            >
              <ActionIcon variant="subtle" aria-label="Why Count is off" data-testid="firms-urlcode-note">
                <IconInfoCircle size={16} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
            <QuickFilterInput gridKey={QUICK_KEY} testId="firms-quick-filter" />
            <ColumnChooser api={gridApi as GridApi | null} testId="firms-columns" />
          </Group>
        )}
        {result && reusedFrom !== null && (
          <Text fz="sm" c="dimmed" role="status" data-testid="firms-reused" style={{ flexShrink: 0 }}>
            Page {fmt(page)} was already fetched in this session (at{' '}
            {new Date(reusedFrom).toLocaleTimeString()}) and is shown again: nothing was downloaded, and the
            Library keeps its one copy.
          </Text>
        )}
        {/* The first rows of a result show without scrolling: the grid takes what is left of the page. */}
        <Box flex={1} miw={0} mih={result ? 180 : 0} style={{ display: 'flex', flexDirection: 'column' }}>
          {nothingMatched ? (
            <SearchEmptyState
              when="no-match"
              testId="firms-no-match"
              icon={IconSearchOff}
              // After a search that failed or was cancelled, the answer on screen is the one before it.
              title={
                status === 'error' || cancelled
                  ? 'The previous firm search matched no firms'
                  : 'No firms match this filter'
              }
              description={
                status === 'error' || cancelled
                  ? 'The service had no firm for its filter, so nothing was downloaded.'
                  : 'The service found no firm for it, so nothing was downloaded. Widen the filter (fewer words, more countries or HS codes, a longer date range) and search again.'
              }
            />
          ) : result ? (
            <DataGrid<FirmRecord>
              gridId="firms"
              testId="firms-grid"
              rows={result.firms}
              columnDefs={columnDefs}
              quickFilter={quick}
              onApi={setGridApi}
              height="100%"
              recordTitle="Firm"
            />
          ) : (
            !running &&
            !error && (
              // As on Search before its first search: what to do, in an empty state of the same kind.
              <SearchEmptyState
                when="not-yet"
                testId="firms-search-empty"
                icon={IconBuildingWarehouse}
                title="No firm search yet"
                description={
                  <>
                    Choose at least one filter above (countries, HS codes, dates, a product or a firm name),
                    then choose <strong>Search firms</strong> or press <Kbd size="xs">Enter</Kbd> in any
                    field. The firms that match show here, one page at a time, and are kept in the Library.
                  </>
                }
              />
            )
          )}
        </Box>
      </Stack>
    </Group>
  );
}
