import { useEffect, useMemo, useState } from 'react';
import { Box } from '@mantine/core';
import type { ColDef, GridApi, ICellRendererParams } from 'ag-grid-community';
import type { FirmRecord, ShipmentFilter } from '@shared/spec';
import { ErrorMessage } from '../../components/error-message';
import { FilterForm } from '../filters';
import { useFilter } from '../filters';
import { validateDraft } from '../filters';
import { RunButton } from '../filters';
import { PresetsPanel } from '../presets';
import { ColumnChooser } from '../../components/grid/column-chooser';
import { DataGrid } from '../../components/grid/data-grid';
import { describeMetric, useAccountContext, useUsageStore } from '../../session';
import { useJobsStore } from '../jobs';
import { firmSearchFilter, openShipmentsOf, type PartyRole } from '../search';
import { checkPageJump, useFirmsStore } from './firms-store';
import { firmColumnDefs } from '../../components/grid/firm-columns';

const fmt = (n: number) => n.toLocaleString('en-US');

function FirmActions(
  p: ICellRendererParams<FirmRecord> & { role: PartyRole | null; within: ShipmentFilter | null },
) {
  if (!p.data) return null;
  const name = p.data.name;
  const i = p.node.rowIndex ?? 0;
  const roles: PartyRole[] = p.role ? [p.role] : ['importer', 'exporter'];
  return (
    <span style={{ display: 'flex', gap: 2 }}>
      {roles.map((role) => (
        <button
          key={role}
          type="button"
          style={{ fontSize: 11 }}
          data-testid={`firm-open-${role}-${i}`}
          title={`Search shipments with ${role} name “${name}”`}
          onClick={() => openShipmentsOf(role, name, p.within ? { within: p.within } : {})}
        >
          {p.role ? 'Shipments' : role === 'importer' ? 'As importer' : 'As exporter'}
        </button>
      ))}
      <button
        type="button"
        style={{ fontSize: 11 }}
        disabled
        data-testid={`firm-count-${i}`}
        title="A firm record has no UrlCode, which shipment count needs. Count from a shipment's importer or exporter instead (Search → Parties)."
      >
        Count
      </button>
    </span>
  );
}

/** The service's firm search with paging, firm count, and the way from a firm to its shipments. */
export function FirmSearchView() {
  const draft = useFilter((s) => s.draft);
  const status = useFirmsStore((s) => s.status);
  const result = useFirmsStore((s) => s.result);
  const resultRequest = useFirmsStore((s) => s.resultRequest);
  const error = useFirmsStore((s) => s.error);
  const request = useFirmsStore((s) => s.request);
  const count = useFirmsStore((s) => s.count);
  const reusedFrom = useFirmsStore((s) => s.reusedFrom);
  const { search, goToPage, countFirms } = useFirmsStore.getState();
  const askFetchAll = useJobsStore((s) => s.askFetchAll);
  const summary = useUsageStore((s) => s.summary);
  const [quick, setQuick] = useState('');
  const [jump, setJump] = useState('');
  const [gridApi, setGridApi] = useState<GridApi<FirmRecord> | null>(null);

  useEffect(() => {
    void useUsageStore.getState().ensureLoaded();
  }, []);

  const accounts = useAccountContext();
  const searchCheck = validateDraft(draft, 'firmSearch', { page: 1, ...accounts });
  const countCheck = validateDraft(draft, 'firmCount', accounts);
  // The account charged: the filter's, else the profile's default that main sends.
  const account = draft.account_name.trim() || accounts.defaultAccount;
  // The spec does not say how many firms a page holds, so only the standing of each metric is shown.
  const searchLimit = describeMetric(summary, account, 'firms/search');
  const countLimit = describeMetric(summary, account, 'firms/count');
  const running = status === 'running';
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

  const page = result?.page ?? 1;
  const pages = result?.total_pages ?? 0;
  const jumpCheck = checkPageJump(jump, pages);

  return (
    <Box data-testid="firms-search-view">
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ flex: 1 }}>
          <FilterForm
            validation={searchCheck}
            // Enter runs the firm search exactly when its button could be pressed.
            onSubmit={() => {
              if (!searchCheck.reason && !running) void search();
            }}
          />
        </div>
        <PresetsPanel />
      </div>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', margin: '8px 0', flexWrap: 'wrap' }}>
        <RunButton
          testId="firms-run"
          label="Search firms"
          reason={searchCheck.reason}
          busy={running}
          onRun={() => void search()}
        />
        <small data-testid="firms-search-cost">{searchLimit.message}</small>
        <RunButton
          testId="firms-count"
          label="Count firms"
          primary={false}
          reason={countCheck.reason}
          busy={count.status === 'running'}
          onRun={() => void countFirms()}
        />
        <small data-testid="firms-count-cost">{countLimit.message}</small>
        {running && <progress data-testid="firms-progress" aria-label="Searching firms" />}
      </div>
      {(searchLimit.state === 'exceeds' || countLimit.state === 'exceeds') && (
        <div role="alert" data-testid="firms-limit-warning" style={{ color: '#c0392b' }}>
          The account has used up its {searchLimit.state === 'exceeds' ? 'firm search' : 'firm count'} limit;
          the service may refuse this request.
        </div>
      )}
      {count.status === 'done' && count.value !== null && (
        <div data-testid="firms-count-result" data-count={count.value}>
          {fmt(count.value)} firms match the filter.
        </div>
      )}
      {count.error && <ErrorMessage error={count.error} testId="firms-count-error" />}
      {error && <ErrorMessage error={error} testId="firms-error" />}
      {result && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center', margin: '8px 0', flexWrap: 'wrap' }}>
          <strong data-testid="firms-summary" data-page={page} data-pages={pages}>
            Page {fmt(page)} of {fmt(pages)} · {fmt(result.firms_count)} firms on this page ·{' '}
            {fmt(result.total_shipment)} shipments match
          </strong>
          <button
            type="button"
            data-testid="firms-prev"
            disabled={running || page <= 1}
            onClick={() => void goToPage(page - 1)}
          >
            ← Previous
          </button>
          <button
            type="button"
            data-testid="firms-next"
            disabled={running || page >= pages}
            onClick={() => void goToPage(page + 1)}
          >
            Next →
          </button>
          {pages > 1 && request && (
            <button
              type="button"
              data-testid="firms-fetch-all"
              onClick={() => void askFetchAll('firms', request, pages)}
            >
              Fetch all {fmt(pages)} pages
            </button>
          )}
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (jumpCheck.ok) void goToPage(jumpCheck.page);
            }}
          >
            <label>
              Page{' '}
              <input
                type="number"
                min={1}
                max={Math.max(1, pages)}
                value={jump}
                data-testid="firms-page-input"
                aria-invalid={Boolean(jumpCheck.message)}
                aria-describedby={jumpCheck.message ? 'firms-page-input-error' : undefined}
                onChange={(e) => setJump(e.target.value)}
                style={{ width: 70 }}
              />
            </label>
            <button type="submit" data-testid="firms-page-go" disabled={running || !jumpCheck.ok}>
              Go
            </button>
            {jumpCheck.message && (
              <span
                id="firms-page-input-error"
                data-testid="firms-page-input-error"
                role="alert"
                style={{ color: 'var(--danger, #c0392b)', marginLeft: 6 }}
              >
                {jumpCheck.message}
              </span>
            )}
          </form>
          <input
            type="search"
            placeholder="Quick filter"
            value={quick}
            data-testid="firms-quick-filter"
            onChange={(e) => setQuick(e.target.value)}
            style={{ marginLeft: 'auto' }}
          />
          <ColumnChooser api={gridApi as GridApi | null} testId="firms-columns" />
        </div>
      )}
      {result && reusedFrom !== null && (
        <p role="status" className="message" data-testid="firms-reused">
          Page {fmt(page)} was already fetched in this session (at {new Date(reusedFrom).toLocaleTimeString()}
          ) and is shown again: nothing was downloaded, and the Library keeps its one copy.
        </p>
      )}
      {result && (
        <p style={{ fontSize: 12, opacity: 0.8 }} data-testid="firms-urlcode-note">
          Counting a firm's shipments needs its UrlCode, which firm records do not carry. Use “Parties” on a
          shipment in Search to count an importer's or exporter's shipments; “Shipments” here searches by the
          firm's name instead.
        </p>
      )}
      {result && (
        <DataGrid<FirmRecord>
          gridId="firms"
          testId="firms-grid"
          rows={result.firms}
          columnDefs={columnDefs}
          quickFilter={quick}
          onApi={setGridApi}
          height={460}
          recordTitle="Firm"
        />
      )}
    </Box>
  );
}
