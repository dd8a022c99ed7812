import { useEffect, useMemo, useState } from 'react';
import type { ColDef, ColGroupDef, GridApi, ICellRendererParams } from 'ag-grid-community';
import { SHIPMENT_SEARCH_MAX_SIZE, SHIPMENT_SEARCH_MIN_SIZE, type ShipmentRecord } from '@shared/spec';
import { SHIPMENT_FIELDS } from '@shared/spec/records';
import { ErrorMessage } from '../../components/error-message';
import { ExportButton } from '../export';
import { viewFromGrid } from '../export';
import { FilterForm } from '../filters';
import { FieldMessages } from '../filters';
import { RunButton } from '../filters';
import { PartyPanel } from './party-panel';
import { FetchAllDialog } from '../jobs';
import { JobsPanel } from '../jobs';
import { useJobsStore } from '../jobs';
import { SavedCopyOffer } from '../../components/saved-copy-offer';
import { PresetsPanel } from '../presets';
import { useUsageStore } from '../../session';
import { ColumnChooser } from '../../components/grid/column-chooser';
import { forgetColumnState } from '../../components/grid/column-state';
import { DataGrid } from '../../components/grid/data-grid';
import { describeCancelOutcome, useSearchCheck, useSearchStore, type SearchCheck } from './search-store';
import { shipmentColumnDefs } from '../../components/grid/shipment-columns';

const fmt = (n: number) => n.toLocaleString('en-US');
const SIZE_PRESETS = [10, 100, 1000, 5000, 10_000];
const GRID_ID = 'shipments';

function useElapsed(running: boolean, startedAt: number | null): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(performance.now()), 200);
    return () => clearInterval(t);
  }, [running]);
  return running && startedAt ? Math.max(0, now - startedAt) : 0;
}

function SizeAndCost({ check }: { check: SearchCheck }) {
  const size = useSearchStore((s) => s.size);
  const overLimitConfirmed = useSearchStore((s) => s.overLimitConfirmed);
  const { setSize, confirmOverLimit } = useSearchStore.getState();
  const [text, setText] = useState(String(size));
  const { limit } = check;
  return (
    <div
      className="size-and-cost"
      data-testid="search-cost"
      data-limit-state={limit?.state ?? 'invalid-size'}
      style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}
    >
      <label>
        Records to download{' '}
        <input
          type="number"
          min={SHIPMENT_SEARCH_MIN_SIZE}
          max={SHIPMENT_SEARCH_MAX_SIZE}
          step={10}
          value={text}
          data-testid="search-size-input"
          onChange={(e) => {
            setText(e.target.value);
            // An empty or partial entry becomes NaN, which the request schema reports at `size`.
            setSize(e.target.value === '' ? Number.NaN : Number(e.target.value));
          }}
          style={{ width: 90 }}
        />
      </label>
      {SIZE_PRESETS.map((n) => (
        <button
          key={n}
          type="button"
          data-testid={`search-size-${n}`}
          aria-pressed={size === n}
          onClick={() => {
            setText(String(n));
            setSize(n);
          }}
        >
          {fmt(n)}
        </button>
      ))}
      <span data-testid="search-cost-text">{check.costText}</span>
      {limit?.state === 'exceeds' && (
        <label data-testid="search-over-limit" style={{ color: '#c0392b' }}>
          <input
            type="checkbox"
            checked={overLimitConfirmed}
            data-testid="search-confirm-over-limit"
            onChange={(e) => confirmOverLimit(e.target.checked)}
          />{' '}
          Run anyway, past the limit
        </label>
      )}
    </div>
  );
}

function ActionCell(p: ICellRendererParams<ShipmentRecord> & { onOpen: (row: ShipmentRecord) => void }) {
  if (!p.data) return null;
  const row = p.data;
  return (
    <button
      type="button"
      data-testid={`shipment-parties-${p.node.rowIndex ?? 0}`}
      onClick={() => p.onOpen(row)}
      style={{ fontSize: 11 }}
    >
      Parties
    </button>
  );
}

/** Shipment search: the filter, the download size with its cost, and the results grid. */
export function SearchPage() {
  const status = useSearchStore((s) => s.status);
  const result = useSearchStore((s) => s.result);
  const error = useSearchStore((s) => s.error);
  const request = useSearchStore((s) => s.request);
  const startedAt = useSearchStore((s) => s.startedAt);
  const elapsedMs = useSearchStore((s) => s.elapsedMs);
  const offer = useSearchStore((s) => s.offer);
  const offerNotice = useSearchStore((s) => s.offerNotice);
  const cancelOutcome = useSearchStore((s) => s.cancelOutcome);
  const notice = useSearchStore((s) => s.notice);
  const { run, cancel, dismissOffer, openOffer, showLateAnswer } = useSearchStore.getState();
  const askFetchAll = useJobsStore((s) => s.askFetchAll);
  const datasetId = useSearchStore((s) => s.datasetId);
  const answers = useSearchStore((s) => s.answers);
  const [quick, setQuick] = useState('');
  const [gridApi, setGridApi] = useState<GridApi<ShipmentRecord> | null>(null);
  const [partyRow, setPartyRow] = useState<ShipmentRecord | null>(null);
  const running = status === 'running';
  const elapsed = useElapsed(running, startedAt);

  useEffect(() => {
    void useUsageStore.getState().ensureLoaded();
  }, []);

  const check = useSearchCheck();
  const { validation, reason } = check;
  // The result on screen answers an earlier search when the last one failed or was cancelled.
  const previous = result && (status === 'error' || status === 'cancelled') ? status : null;

  const columnDefs = useMemo<(ColDef<ShipmentRecord> | ColGroupDef<ShipmentRecord>)[]>(
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
      ...shipmentColumnDefs(),
    ],
    [],
  );

  const shown = result?.shipments.length ?? 0;
  const total = result?.total ?? 0;

  return (
    <section className="page search-page" data-testid="search-page" data-answers={answers}>
      <h1>Shipment search</h1>
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ flex: 1 }}>
          <FilterForm validation={validation} />
        </div>
        <PresetsPanel />
      </div>
      <SizeAndCost check={check} />
      <FieldMessages slot="size" messages={validation.bySlot.size} />
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', margin: '8px 0' }}>
        <RunButton
          testId="search-run"
          label="Search shipments"
          reason={reason}
          busy={running}
          onRun={() => void run()}
        />
        {running && (
          <>
            <progress data-testid="search-progress" aria-label="Searching" />
            <span>Searching… {(elapsed / 1000).toFixed(1)} s</span>
            <button type="button" data-testid="search-cancel" onClick={cancel}>
              Cancel
            </button>
          </>
        )}
        {status === 'cancelled' && (
          <span data-testid="search-cancelled" data-outcome={cancelOutcome?.state ?? 'nothing-spent'}>
            {describeCancelOutcome(cancelOutcome) ?? 'Search cancelled.'}
            {cancelOutcome?.state === 'spent' && (
              <>
                {' '}
                <button type="button" data-testid="search-cancelled-show" onClick={showLateAnswer}>
                  Show this result
                </button>
              </>
            )}
          </span>
        )}
      </div>
      <SavedCopyOffer
        testId="search-saved-offer"
        offer={offer}
        cost={offer?.request.size ?? null}
        onOpen={() => void openOffer()}
        onDismiss={dismissOffer}
        onFetchAgain={() => void run({ fresh: true })}
      />
      {offerNotice && (
        <p role="status" className="message" data-testid="search-saved-offer-gone">
          {offerNotice}
        </p>
      )}
      {notice && (
        <p role="status" className="message" data-testid="search-notice">
          {notice}
        </p>
      )}
      <JobsPanel />
      <FetchAllDialog />
      {error && (
        <div data-testid="search-error-box">
          <ErrorMessage error={error} testId="search-error" />
          {elapsedMs !== null && (
            <small data-testid="search-error-elapsed">
              The search failed after {(elapsedMs / 1000).toFixed(2)} s.
            </small>
          )}
          {error.kind === 'LimitExceeded' && (
            <div data-testid="search-retry-after">
              {error.retryAfterSeconds !== undefined
                ? `The service asks to wait ${error.retryAfterSeconds} s before trying again.`
                : 'The service did not say when to retry.'}
            </div>
          )}
          {error.issues?.length ? (
            <ul>
              {error.issues.map((i) => (
                <li key={`${i.path}:${i.message}`}>{i.path ? `${i.path}: ${i.message}` : i.message}</li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      {previous && (
        <p role="note" data-testid="search-result-previous" style={{ color: '#b9770e', margin: '8px 0 0' }}>
          {previous === 'error'
            ? 'The last search failed. The records below are the result of the previous search, not of the one that failed.'
            : 'The last search was cancelled. The records below are the result of the previous search.'}
        </p>
      )}
      {result && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center', margin: '8px 0' }}>
          <strong data-testid="search-summary" data-shown={shown} data-total={total}>
            {shown < total
              ? `Showing ${fmt(shown)} of ${fmt(total)} matching records`
              : `${fmt(total)} matching record${total === 1 ? '' : 's'}, all shown`}
          </strong>
          {shown < total && (
            <span data-testid="search-truncated" style={{ color: '#b9770e' }}>
              (truncated to the requested size {fmt(request?.size ?? shown)})
            </span>
          )}
          {shown < total && request && (
            <button
              type="button"
              data-testid="search-fetch-all"
              onClick={() => void askFetchAll('shipments', request)}
            >
              Fetch all {fmt(total)} records
            </button>
          )}
          {elapsedMs !== null && status === 'done' && (
            <small data-testid="search-elapsed">in {(elapsedMs / 1000).toFixed(2)} s</small>
          )}
          <input
            type="search"
            placeholder="Quick filter"
            value={quick}
            data-testid="search-quick-filter"
            onChange={(e) => setQuick(e.target.value)}
            style={{ marginLeft: 'auto' }}
          />
          {datasetId && (
            <ExportButton
              source={{ datasetId }}
              suggestedName="Shipments"
              resolveView={() =>
                gridApi ? viewFromGrid(gridApi as GridApi, quick, SHIPMENT_FIELDS) : undefined
              }
            />
          )}
          <ColumnChooser
            api={gridApi as GridApi | null}
            testId="shipments-columns"
            onReset={() => {
              forgetColumnState(GRID_ID);
              gridApi?.resetColumnState();
            }}
          />
        </div>
      )}
      <div style={{ display: 'flex', gap: 8 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          {result && (
            <DataGrid<ShipmentRecord>
              gridId={GRID_ID}
              testId="shipments-grid"
              rows={result.shipments}
              columnDefs={columnDefs}
              quickFilter={quick}
              onApi={setGridApi}
            />
          )}
        </div>
        {partyRow && <PartyPanel row={partyRow} onClose={() => setPartyRow(null)} />}
      </div>
    </section>
  );
}
