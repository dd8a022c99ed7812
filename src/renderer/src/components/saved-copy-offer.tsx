import { COUNT, formatNumber } from '@shared/fields';
import { Alert, Button, CloseButton, Group, Text } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import type { EquivalentView } from '@shared/library/library-contract';
import { describeAge } from './format';

const fmt = (n: number): string => formatNumber(n, COUNT);

export interface SavedCopyOfferProps {
  offer: EquivalentView | null;
  /** The most fetching again can download (the size asked for). */
  cost: number | null;
  onFetchAgain: () => void;
  /** Opens the copy (the holder checks it is still there: it may have been deleted since the offer). */
  onOpen: () => void;
  onDismiss: () => void;
  testId: string;
}

/** How much of the answer the copy holds: "all 3,000 records", "2,000 of 5,000 records". */
function describeHeld(d: EquivalentView['dataset']): string {
  const unit = d.kind === 'firms' ? 'firms' : 'records';
  if (d.reportedTotal === null) return `${fmt(d.storedRows)} ${unit}`;
  if (d.storedRows >= d.reportedTotal) return `all ${fmt(d.reportedTotal)} ${unit}`;
  return `${fmt(d.storedRows)} of ${fmt(d.reportedTotal)} ${unit}`;
}

/** "Saved 3 h ago — open saved copy / fetch again (up to N downloads)": the library answers before the account pays again. */
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
    <Alert
      color="blue"
      role="status"
      icon={<IconDatabase size={16} />}
      py="xs"
      data-testid={testId}
      data-dataset-id={d.id}
      data-age-seconds={offer.ageSeconds}
      // In a column that gives the grid what is left, the offer keeps its own height.
      style={{ flexShrink: 0 }}
    >
      {/* The sentence and its two actions wrap as one when the window is narrow; the dismiss button
          stays at the right of the first line, never on a line of its own. */}
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Group gap="xs" wrap="wrap" flex={1} miw={0}>
          <Text fz="sm" data-testid={`${testId}-text`}>
            Saved {describeAge(offer.ageSeconds)}: “{d.name}” with {describeHeld(d)} is already in the
            library.
          </Text>
          <Group gap="xs" wrap="nowrap" data-testid={`${testId}-actions`}>
            <Button size="compact-sm" variant="default" data-testid={`${testId}-open`} onClick={onOpen}>
              Open saved copy
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              data-testid={`${testId}-refetch`}
              onClick={onFetchAgain}
            >
              {/* The service charges what it returns: the size asked for is the most it can cost (a
                  query that matched no record costs nothing), never a price to be paid whole. */}
              Fetch again{cost !== null ? ` (up to ${fmt(cost)} downloads)` : ' (costs downloads)'}
            </Button>
          </Group>
        </Group>
        <CloseButton size="sm" aria-label="Dismiss" data-testid={`${testId}-dismiss`} onClick={onDismiss} />
      </Group>
    </Alert>
  );
}
