import { COUNT, formatNumber } from '@shared/fields';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Divider,
  Group,
  Kbd,
  Loader,
  NumberInput,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useId } from '@mantine/hooks';
import { IconSearch, IconSearchOff } from '@tabler/icons-react';
import type { ColDef, ColGroupDef, GridApi, ICellRendererParams } from 'ag-grid-community';
import { SHIPMENT_SEARCH_MAX_SIZE, SHIPMENT_SEARCH_MIN_SIZE, type ShipmentRecord } from '@shared/spec';
import type { DatasetRow } from '@shared/library/library-contract';
import type { BridgeError } from '@shared/ipc/errors';
import { SHIPMENT_FIELDS } from '@shared/spec/records';
import { CancelButton } from '../../components/cancel-button';
import { CancelledNotice } from '../../components/cancelled-notice';
import { PreviousResultNote } from '../../components/previous-result-note';
import { useEscapeCancels } from '../../components/use-escape-cancel';
import { ErrorMessage } from '../../components/error-message';
import { useMsUntil } from '../../components/use-now';
import { SearchEmptyState } from '../../components/search-empty-state';
import { ExportButton } from '../export';
import { viewFromGrid } from '../export';
import {
  FieldMessages,
  FilterForm,
  FilterScroll,
  RunButton,
  RunReason,
  describeFormIssue,
  type Validation,
} from '../filters';
import { Page } from '../../components/page';
import { PartyPanel } from './party-panel';
import { SaveFailedAlert } from './save-failed-alert';
import { useJobsStore } from '../jobs';
import { SavedCopyOffer } from '../../components/saved-copy-offer';
import { PresetsPanel } from '../presets';
import { useUsageStore } from '../../session';
import { ColumnChooser } from '../../components/grid/column-chooser';
import { forgetColumnState } from '../../components/grid/column-state';
import { useQuickFilter } from '../../components/grid/quick-filter-store';
import { QuickFilterInput } from '../../components/grid/quick-filter-input';
import { DataGrid } from '../../components/grid/data-grid';
import { DatasetGrid, type DatasetGridContext } from '../library';
import {
  cancelledState,
  runSearchCommand,
  SEARCH_GRID_ID,
  selectNothingMatched,
  useSearchCheck,
  useSearchStore,
  type SearchCheck,
} from './search-store';
import { shipmentColumnDefs } from '../../components/grid/shipment-columns';

const fmt = (n: number): string => formatNumber(n, COUNT);
const SIZE_PRESETS = [10, 100, 1000, 5000, 10_000];

/**
 * "Searching… 1.2 s": its own component, so the tick every 200 ms redraws this line and not the page
 * (the whole page's render each tick took CPU from the search it waits for).
 */
function SearchingElapsed() {
  const startedAt = useSearchStore((s) => s.startedAt);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 200);
    return () => clearInterval(t);
  }, []);
  // The first rows show while the rest of the answer still arrives and is checked.
  const early = useSearchStore((s) => s.early !== null);
  const elapsed = startedAt ? Math.max(0, now - startedAt) : 0;
  return (
    <Text fz="sm" data-testid="search-running-text">
      {early ? 'Receiving the rest of the answer…' : 'Searching…'} {(elapsed / 1000).toFixed(1)} s
    </Text>
  );
}

/** The search's error, a limit's wait in it counted down: a render a second of this message alone. */
function SearchErrorMessage({ error }: { error: BridgeError }) {
  const endsAt = useSearchStore((s) => s.errorWaitEndsAt);
  const left = useMsUntil(endsAt);
  return (
    <ErrorMessage error={error} testId="search-error" {...(endsAt !== null ? { waitLeftMs: left } : {})} />
  );
}

/**
 * The filter panel and the presets beside it, memoised: a search's answer re-renders the result area,
 * not the form's fields (their render was most of the time between the answer and its first rows).
 */
const SearchFilterForm = memo(function SearchFilterForm({ validation }: { validation: Validation }) {
  return <FilterForm validation={validation} onSubmit={submitSearch} />;
});
const SearchPresets = memo(PresetsPanel);

/**
 * The filter, its check and the run bar. The check (the filter, the size, the account's usage) is
 * subscribed to here and not by the page, so that usage news, which comes with every search's answer,
 * and each keystroke redraw this panel only, not the result grid beside it.
 */
const SearchFilterPanel = memo(function SearchFilterPanel({ hasResult }: { hasResult: boolean }) {
  const check = useSearchCheck();
  return (
    <Paper p="sm" data-testid="search-filter-panel" style={{ flexShrink: 0 }}>
      <Stack gap="xs">
        <Title order={1} id="search-title" fz="lg">
          Shipment search
        </Title>
        {/* The fields scroll inside the panel when "More filters" is open on a small window, so
            the run bar under them and the first rows of a result stay in view; before there is
            a result, they have the window's height but for the run bar. */}
        <FilterScroll min={180} reserve={hasResult ? 440 : 260} testId="search-filter-scroll">
          <SearchFilterForm validation={check.validation} />
        </FilterScroll>
        <Divider />
        <RunBar check={check} />
      </Stack>
    </Paper>
  );
});

/**
 * The size a number field's entry asks for. The field hands over text, without its separators, when it
 * is no number yet ("", "-") or too long for one: those become NaN, which the request schema reports at
 * `size` ("required: a whole number from 10 to 10,000"), or the number the text reads as (past 10,000).
 */
function sizeOfEntry(v: number | string): number {
  if (typeof v === 'number') return v;
  const t = v.trim();
  return t === '' ? Number.NaN : Number(t);
}

function submitSearch(): void {
  runSearchCommand();
}

/** The run bar: how many records to download, what that costs the account, and the Run button. */
const RunBar = memo(function RunBar({ check }: { check: SearchCheck }) {
  const size = useSearchStore((s) => s.size);
  const status = useSearchStore((s) => s.status);
  const overLimitConfirmed = useSearchStore((s) => s.overLimitConfirmed);
  // While the answer could not be saved, "Save again" is the one primary action (one filled button).
  const saveAgainFirst = useSearchStore((s) => s.saveFailure !== null);
  const { setSize, confirmOverLimit, run } = useSearchStore.getState();
  const [text, setText] = useState<number | string>(size);
  const sizeId = useId();
  const { limit } = check;
  const sizeMessages = check.validation.bySlot.size;
  return (
    <Stack gap={4} data-testid="search-run-bar">
      <Group gap="sm" wrap="nowrap" align="center" justify="space-between">
        <Group
          gap="xs"
          wrap="wrap"
          align="center"
          miw={0}
          data-testid="search-cost"
          data-limit-state={limit?.state ?? 'invalid-size'}
        >
          {/* Named on screen as the field messages name it ("Records to download: at least 10"). */}
          <Text component="label" htmlFor={sizeId} fz="sm" data-testid="search-size-label">
            Records to download
          </Text>
          <NumberInput
            id={sizeId}
            min={SHIPMENT_SEARCH_MIN_SIZE}
            max={SHIPMENT_SEARCH_MAX_SIZE}
            step={10}
            // Grouped as every count on screen is (10,000), also while typing; what is typed stays as
            // typed (no clamping on blur), so a number out of range is told at the field, not changed.
            thousandSeparator=","
            clampBehavior="none"
            hideControls
            w={96}
            value={text}
            data-testid="search-size-input"
            error={Boolean(sizeMessages?.length)}
            leftSectionWidth={0}
            onChange={(v) => {
              setText(v);
              setSize(sizeOfEntry(v));
            }}
            // A field of the search as the filter's are: Enter runs it, exactly as the Run button would.
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
              e.preventDefault();
              submitSearch();
            }}
          />
          <Button.Group aria-label="Common numbers of records">
            {SIZE_PRESETS.map((n) => (
              <Button
                key={n}
                size="compact-sm"
                h={32}
                variant={size === n ? 'light' : 'default'}
                data-testid={`search-size-${n}`}
                aria-pressed={size === n}
                onClick={() => {
                  setText(n);
                  setSize(n);
                }}
              >
                {fmt(n)}
              </Button>
            ))}
          </Button.Group>
          <Text fz="sm" c="dimmed" data-testid="search-cost-text" miw={0}>
            {check.costText}
          </Text>
          {check.hsCodes && (
            <Text
              fz="sm"
              c={check.hsCodes.state === 'exceeds' ? 'red' : 'dimmed'}
              data-testid="search-hs-codes"
              data-state={check.hsCodes.state}
              miw={0}
            >
              {check.hsCodes.message}
            </Text>
          )}
          {limit?.state === 'exceeds' && (
            <Box data-testid="search-over-limit">
              <Checkbox
                data-testid="search-confirm-over-limit"
                color="red"
                label="Run anyway, past the limit"
                checked={overLimitConfirmed}
                onChange={(e) => confirmOverLimit(e.currentTarget.checked)}
                styles={{ label: { color: 'var(--mantine-color-red-text)' } }}
              />
            </Box>
          )}
        </Group>
        <RunButton
          testId="search-run"
          label="Search shipments"
          reason={check.reason}
          busy={status === 'running'}
          onRun={() => void run()}
          shortcut="Enter · Ctrl+Enter"
          primary={!saveAgainFirst}
          hideReason
        />
      </Group>
      <FieldMessages slot="size" messages={sizeMessages} />
      <RunReason testId="search-run" reason={check.reason} />
    </Stack>
  );
});

function ActionCell(p: ICellRendererParams<DatasetRow> & { onOpen: (row: ShipmentRecord) => void }) {
  const { data, context, node, onOpen, eGridCell } = p;
  const open = async (): Promise<void> => {
    if (!data) return;
    // The grid holds the shown columns of a row: the parties panel reads the row's every field.
    const wholeRow = (context as Partial<DatasetGridContext> | undefined)?.wholeRow;
    // A stored row is the record (every field as the answer had it) and its row number.
    const whole = (await wholeRow?.(node.rowIndex ?? -1)) ?? data;
    onOpen(whole as unknown as ShipmentRecord);
  };
  const latestOpen = useRef(open);
  useEffect(() => {
    latestOpen.current = open;
  });
  // The grid is one Tab stop (the arrows move inside it), so the button is not one of its own: Enter on
  // its cell opens the parties, as a click on it does, instead of the record view Enter opens elsewhere.
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
      e.preventDefault();
      void latestOpen.current();
    };
    eGridCell.addEventListener('keydown', onKey);
    return () => eGridCell.removeEventListener('keydown', onKey);
  }, [eGridCell]);
  if (!data) return null;
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      tabIndex={-1}
      aria-keyshortcuts="Enter"
      data-testid={`shipment-parties-${node.rowIndex ?? 0}`}
      onClick={() => void open()}
    >
      Parties
    </Button>
  );
}

/** Before the first search: what to do, instead of an empty grid. */
function NoSearchYet() {
  return (
    <SearchEmptyState
      when="not-yet"
      testId="search-empty"
      icon={IconSearch}
      title="No search yet"
      description={
        <>
          Choose countries, HS codes, dates or a product above, or leave them empty for the latest shipments,
          then choose <strong>Search shipments</strong> or press <Kbd size="xs">Enter</Kbd> in any field (
          <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd> anywhere on the page). The records show here
          and are kept in the Library, to work with offline.
        </>
      }
    />
  );
}

/**
 * An answer with no record: said in words, in place of a grid of headers over nothing. When a later
 * search failed or was cancelled, the answer on screen is the previous search's, and is named so.
 */
function NoMatch({ previous }: { previous: boolean }) {
  return (
    <SearchEmptyState
      when="no-match"
      testId="search-no-match"
      icon={IconSearchOff}
      title={previous ? 'The previous search matched no shipments' : 'No shipments match this filter'}
      description={
        previous
          ? 'The service had no record for its filter, so it cost no downloads.'
          : 'The service has no record for it, so the search cost no downloads. Widen the filter (fewer words, more countries or HS codes, a longer date range) and search again.'
      }
    />
  );
}

/** Shipment search: the filter, the download size with its cost, and the results grid. */
export function SearchPage() {
  const status = useSearchStore((s) => s.status);
  const result = useSearchStore((s) => s.result);
  const error = useSearchStore((s) => s.error);
  const request = useSearchStore((s) => s.request);
  const elapsedMs = useSearchStore((s) => s.elapsedMs);
  const offer = useSearchStore((s) => s.offer);
  const nothingMatched = useSearchStore(selectNothingMatched);
  const offerNotice = useSearchStore((s) => s.offerNotice);
  const cancelOutcome = useSearchStore((s) => s.cancelOutcome);
  const notice = useSearchStore((s) => s.notice);
  const { run, cancel, dismissOffer, openOffer, showLateAnswer } = useSearchStore.getState();
  const askFetchAll = useJobsStore((s) => s.askFetchAll);
  const answers = useSearchStore((s) => s.answers);
  // The answer is not in the library (its save failed): the library grid has nothing to read.
  const notStored = useSearchStore((s) => s.saveFailure !== null);
  const kept = useSearchStore((s) => s.saveFailure?.shown ?? null);
  // What Export writes: the library's dataset, or the answer main keeps while it is not stored.
  const exportId = useSearchStore((s) =>
    s.saveFailure ? (s.saveFailure.shown ? s.saveFailure.datasetId : null) : s.datasetId,
  );
  const [quick] = useQuickFilter(SEARCH_GRID_ID);
  const [gridApi, setGridApi] = useState<GridApi | null>(null);
  const [gridError, setGridError] = useState<string | null>(null);
  const [partyRow, setPartyRow] = useState<ShipmentRecord | null>(null);
  const running = status === 'running';
  // Keyboard first: Escape cancels the running search, as Cancel does.
  useEscapeCancels(running, cancel);

  useEffect(() => {
    void useUsageStore.getState().ensureLoaded();
  }, []);

  // The result on screen answers an earlier search when the last one failed or was cancelled.
  const previous = result && (status === 'error' || status === 'cancelled') ? status : null;

  const actionColumns = useMemo<ColDef<DatasetRow>[]>(
    () => [
      {
        colId: 'actions',
        headerName: '',
        pinned: 'left',
        width: 86,
        lockVisible: true,
        sortable: false,
        filter: false,
        resizable: false,
        suppressMovable: true,
        cellRenderer: ActionCell,
        cellRendererParams: { onOpen: setPartyRow },
      },
    ],
    [],
  );
  // When the library could not store them: the records came from main's memory and are shown as they are.
  const unsavedColumns = useMemo<(ColDef<ShipmentRecord> | ColGroupDef<ShipmentRecord>)[]>(
    () => [...(actionColumns as unknown as ColDef<ShipmentRecord>[]), ...shipmentColumnDefs()],
    [actionColumns],
  );

  const shown = result?.returned ?? 0;
  const total = result?.total ?? 0;

  return (
    <Page testId="search-page" layout="fill" data-answers={answers} aria-labelledby="search-title">
      <Group gap="md" align="stretch" wrap="nowrap" flex={1} mih={0}>
        <SearchPresets />
        <Stack gap="sm" flex={1} miw={0} mih={0}>
          <SearchFilterPanel hasResult={result !== null} />
          {(running || status === 'cancelled') && (
            <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
              {running && (
                <>
                  <Loader size="xs" data-testid="search-progress" aria-label="Searching" />
                  <SearchingElapsed />
                  <CancelButton testId="search-cancel" onCancel={cancel} />
                </>
              )}
              {status === 'cancelled' && (
                <CancelledNotice
                  testId="search-cancelled"
                  request={{
                    kind: 'search',
                    ...(cancelOutcome?.state === 'spent' ? { records: cancelOutcome.records } : {}),
                  }}
                  outcome={cancelledState(cancelOutcome)}
                  onShow={showLateAnswer}
                />
              )}
            </Group>
          )}
          <SavedCopyOffer
            testId="search-saved-offer"
            offer={offer}
            cost={offer?.request.size ?? null}
            onOpen={() => void openOffer()}
            onDismiss={dismissOffer}
            onFetchAgain={() => void run({ fresh: true })}
          />
          {offerNotice && (
            <Alert
              color="orange"
              role="status"
              data-testid="search-saved-offer-gone"
              style={{ flexShrink: 0 }}
            >
              {offerNotice}
            </Alert>
          )}
          {notice && (
            <Alert color="blue" role="status" data-testid="search-notice" style={{ flexShrink: 0 }}>
              {notice}
            </Alert>
          )}
          {error && (
            <Box data-testid="search-error-box" style={{ flexShrink: 0 }}>
              <SearchErrorMessage error={error} />
              {elapsedMs !== null && (
                <Text fz="xs" c="dimmed" data-testid="search-error-elapsed">
                  The search failed after {(elapsedMs / 1000).toFixed(2)} s.
                </Text>
              )}
              {error.issues?.length ? (
                <ul>
                  {error.issues.map((i) => (
                    <li key={`${i.path}:${i.message}`}>{describeFormIssue(i)}</li>
                  ))}
                </ul>
              ) : null}
            </Box>
          )}
          {previous && <PreviousResultNote testId="search-result-previous" last={previous} what="records" />}
          {result && (
            <Group gap="sm" wrap="wrap" style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
              {/* What came back on the left; the grid's tools together on the right (on a line of
                  their own, still at the right, when the window is too narrow for both). */}
              <Text fw={600} fz="sm" data-testid="search-summary" data-shown={shown} data-total={total}>
                {nothingMatched
                  ? 'No matching records'
                  : shown < total
                    ? `Showing ${fmt(shown)} of ${fmt(total)} matching records`
                    : `${fmt(total)} matching record${total === 1 ? '' : 's'}, all shown`}
              </Text>
              {shown < total && (
                <Text fz="sm" c="orange" data-testid="search-truncated">
                  (Records to download: {fmt(request?.size ?? shown)})
                </Text>
              )}
              {shown < total && request && (
                <Button
                  size="compact-sm"
                  variant="default"
                  data-testid="search-fetch-all"
                  onClick={() => void askFetchAll('shipments', request, total)}
                >
                  Fetch all {fmt(total)} records
                </Button>
              )}
              {elapsedMs !== null && status === 'done' && (
                <Text fz="xs" c="dimmed" data-testid="search-elapsed">
                  in {(elapsedMs / 1000).toFixed(2)} s
                </Text>
              )}
              {/* The grid's tools, while there is a grid: not for an answer neither stored nor shown. */}
              <Group
                gap="sm"
                wrap="nowrap"
                ml="auto"
                data-testid="search-result-tools"
                display={(notStored && !kept) || nothingMatched ? 'none' : undefined}
              >
                <QuickFilterInput gridKey={SEARCH_GRID_ID} testId="search-quick-filter" />
                {exportId && (
                  <ExportButton
                    source={{ datasetId: exportId }}
                    suggestedName="Shipments"
                    // Records shown from memory are exported whole, as answered (main holds them, not SQL).
                    resolveView={() =>
                      gridApi && !kept ? viewFromGrid(gridApi, quick, SHIPMENT_FIELDS) : undefined
                    }
                  />
                )}
                <ColumnChooser
                  api={gridApi as GridApi | null}
                  testId="shipments-columns"
                  onReset={() => {
                    forgetColumnState(SEARCH_GRID_ID);
                    gridApi?.resetColumnState();
                    gridApi?.setFilterModel(null);
                  }}
                />
              </Group>
            </Group>
          )}
          {result?.unsaved && !notStored && (
            <Alert color="orange" role="status" data-testid="search-unsaved" style={{ flexShrink: 0 }}>
              The library could not be opened, so this answer was not saved: it is shown here only, until the
              next search. Export it to keep it.
            </Alert>
          )}
          <SaveFailedAlert />
          {gridError && result?.datasetId && !notStored && (
            <Text role="alert" c="red" fz="sm" data-testid="shipments-grid-error" style={{ flexShrink: 0 }}>
              {gridError}
            </Text>
          )}
          {/* The first rows of a result show without scrolling: the grid takes what is left of the window. */}
          <Group gap="sm" align="stretch" wrap="nowrap" flex={1} mih={result ? 180 : 0}>
            <Box flex={1} miw={0} style={{ display: 'flex', flexDirection: 'column' }}>
              {nothingMatched ? (
                <NoMatch previous={previous !== null} />
              ) : kept ? (
                // Saving failed and the analyst chose to see the records anyway: main's kept copy.
                <DataGrid<ShipmentRecord>
                  gridId={SEARCH_GRID_ID}
                  testId="shipments-grid"
                  rows={kept}
                  columnDefs={unsavedColumns}
                  quickFilter={quick}
                  onApi={(api) => setGridApi(api as GridApi | null)}
                />
              ) : result?.datasetId && !notStored ? (
                // The answer is read from the library in blocks: sort, filters and quick filter run in SQL.
                <DatasetGrid
                  datasetId={result.datasetId}
                  kind="shipments"
                  storedRows={result.returned}
                  head={result.head}
                  headColumns={result.headColumns}
                  quickFilter={quick}
                  initialFilterModel={null}
                  layoutId={SEARCH_GRID_ID}
                  filtersId={SEARCH_GRID_ID}
                  testId="shipments-grid"
                  leadingColumns={actionColumns}
                  resolvedFirmColumns={false}
                  onApi={setGridApi}
                  onError={setGridError}
                  height="fill"
                  hideToolbar
                />
              ) : result?.unsaved ? (
                <DataGrid<ShipmentRecord>
                  gridId={SEARCH_GRID_ID}
                  testId="shipments-grid"
                  rows={result.unsaved}
                  columnDefs={unsavedColumns}
                  quickFilter={quick}
                  onApi={(api) => setGridApi(api as GridApi | null)}
                />
              ) : status === 'idle' && !error && !offer ? (
                <NoSearchYet />
              ) : null}
            </Box>
            <PartyPanel row={partyRow} onClose={() => setPartyRow(null)} />
          </Group>
        </Stack>
      </Group>
    </Page>
  );
}
