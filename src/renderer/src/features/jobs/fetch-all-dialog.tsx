import { ErrorMessage } from '../../components/error-message';
import { SavedCopyOffer } from '../../components/saved-copy-offer';
import { useJobsStore } from './jobs-store';

const fmt = (n: number) => n.toLocaleString('en-US');
const left = (n: number | null) => (n === null ? 'unlimited' : fmt(n));

/** The confirm step of "Fetch all": what it will cost against what the account has left, before anything is spent. */
export function FetchAllDialog() {
  const dialog = useJobsStore((s) => s.dialog);
  const { confirm, dismissDialog, setName, estimate, openSaved } = useJobsStore.getState();
  if (!dialog) return null;
  const e = dialog.estimate;
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="fetch-all-title"
      data-testid="fetch-all-dialog"
      data-state={dialog.state}
      className="dialog"
      style={{
        position: 'fixed',
        inset: 0,
        background: '#0006',
        display: 'grid',
        placeItems: 'center',
        zIndex: 50,
      }}
    >
      <div
        style={{
          background: 'var(--bg, #fff)',
          color: 'inherit',
          padding: 16,
          borderRadius: 8,
          maxWidth: 520,
          boxShadow: '0 4px 24px #0005',
        }}
      >
        <h2 id="fetch-all-title">{dialog.kind === 'firms' ? 'Fetch all pages' : 'Fetch all records'}</h2>
        {dialog.state === 'estimating' && (
          <p data-testid="fetch-all-estimating">Asking the service how big this is (one small request)…</p>
        )}
        <SavedCopyOffer
          testId="fetch-all-saved"
          offer={dialog.saved}
          cost={null}
          onOpen={() => void openSaved()}
          onDismiss={dismissDialog}
          onFetchAgain={() => void estimate()}
        />
        {dialog.error && <ErrorMessage error={dialog.error} testId="fetch-all-error" />}
        {e && (
          <dl
            data-testid="fetch-all-estimate"
            data-total={e.total ?? ''}
            data-downloads={e.estimatedDownloads ?? ''}
            data-requests={e.estimatedRequests ?? ''}
          >
            <dt>To fetch</dt>
            <dd data-testid="fetch-all-total">
              {e.total === null ? 'unknown' : `${fmt(e.total)} ${e.unit}`}
            </dd>
            <dt>Estimated requests</dt>
            <dd data-testid="fetch-all-requests">
              {e.estimatedRequests === null ? 'unknown' : `about ${fmt(e.estimatedRequests)}`}
              {e.optimumRequests !== null && e.unit === 'records'
                ? ` (at least ${fmt(e.optimumRequests)})`
                : ''}{' '}
              — {left(e.remainingDailyRequests)} left today
            </dd>
            <dt>Estimated downloads</dt>
            <dd data-testid="fetch-all-downloads">
              {e.estimatedDownloads === null
                ? 'one page of firms per request'
                : `about ${fmt(e.estimatedDownloads)}`}{' '}
              — {left(e.remainingDownloads)} left
              {e.account ? ` (account ${e.account})` : ''}
            </dd>
          </dl>
        )}
        {e && !e.enough && (
          <div role="alert" data-testid="fetch-all-short" style={{ color: '#c0392b' }}>
            Not enough quota: {e.problems.join('; ')}. The job fetches what is left, then pauses with
            everything kept; resume it later.
          </div>
        )}
        {e && (
          <label>
            Dataset name (optional){' '}
            <input
              value={dialog.name}
              maxLength={200}
              data-testid="fetch-all-name"
              onChange={(ev) => setName(ev.target.value)}
            />
          </label>
        )}
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 12 }}>
          <button type="button" data-testid="fetch-all-cancel" onClick={dismissDialog}>
            Cancel
          </button>
          <button
            type="button"
            data-testid="fetch-all-confirm"
            disabled={dialog.state !== 'ready' || !e}
            onClick={() => void confirm()}
          >
            {dialog.state === 'starting' ? 'Starting…' : 'Start fetching'}
          </button>
        </div>
      </div>
    </div>
  );
}
