import type { EquivalentView } from '@shared/library/library-contract';
import { describeAge } from './format';

const fmt = (n: number) => n.toLocaleString('en-US');

export interface SavedCopyOfferProps {
  offer: EquivalentView | null;
  /** What fetching again would download. */
  cost: number | null;
  onFetchAgain: () => void;
  /** Opens the copy (the holder checks it is still there: it may have been deleted since the offer). */
  onOpen: () => void;
  onDismiss: () => void;
  testId: string;
}

/** "Saved 3 h ago — open saved copy / fetch again (costs N downloads)": the library answers before the account pays again. */
export function SavedCopyOffer({
  offer,
  cost,
  onFetchAgain,
  onOpen,
  onDismiss,
  testId,
}: SavedCopyOfferProps) {
  if (!offer) return null;
  const d = offer.dataset;
  return (
    <div
      role="status"
      className="message"
      data-testid={testId}
      data-dataset-id={d.id}
      data-age-seconds={offer.ageSeconds}
      style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', margin: '8px 0' }}
    >
      <span data-testid={`${testId}-text`}>
        Saved {describeAge(offer.ageSeconds)}: “{d.name}” with {fmt(d.storedRows)}{' '}
        {d.kind === 'firms' ? 'firms' : 'records'}
        {d.reportedTotal !== null ? ` of ${fmt(d.reportedTotal)}` : ''} is already in the library.
      </span>
      <button type="button" data-testid={`${testId}-open`} onClick={onOpen}>
        Open saved copy
      </button>
      <button type="button" data-testid={`${testId}-refetch`} onClick={onFetchAgain}>
        Fetch again{cost !== null ? ` (costs ${fmt(cost)} downloads)` : ' (costs downloads)'}
      </button>
      <button type="button" data-testid={`${testId}-dismiss`} onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
