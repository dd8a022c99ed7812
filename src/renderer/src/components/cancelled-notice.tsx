import { Button, Text } from '@mantine/core';
import { COUNT, formatNumber } from '@shared/fields';

/**
 * What a cancelled request asked for: a shipment search's answer (its records, once they are known), or
 * one page of a firm search.
 */
export type CancelledRequest = { kind: 'search'; records?: number } | { kind: 'firm-page'; page: number };

/**
 * What became of it. A request that has gone to the service is not aborted (the service may count it
 * whether or not its answer is read): Cancel stops the waiting, and an answer that still arrives is kept.
 */
export type CancelledState =
  /** Cancelled before the request left: nothing was sent. */
  | { state: 'nothing-spent' }
  /** The request had left: its answer is awaited and will be kept. */
  | { state: 'pending' }
  /** The answer arrived after Cancel: paid for and saved to the Library; it can still be shown. */
  | { state: 'spent' }
  /** The request ended with an error of its own. */
  | { state: 'failed'; message: string };

const count = (n: number): string => formatNumber(n, COUNT);

/**
 * The sentence for a cancelled search, Search's and Firms' alike: one wording, so the two pages cannot
 * come to tell the same outcome in different words.
 */
export function describeCancelled(request: CancelledRequest, outcome: CancelledState | null): string {
  const search = request.kind === 'search';
  const run = search ? 'Search' : 'Firm search';
  // An outcome no longer told (a late answer of the profile left behind): the bare fact.
  if (!outcome) return `${run} cancelled.`;
  switch (outcome.state) {
    case 'nothing-spent':
      return `${run} cancelled before the request was sent: nothing was downloaded or counted.`;
    case 'pending': {
      const sent = search ? 'The request' : `The request for page ${count(request.page)}`;
      const kept = search ? 'the answer' : 'the page';
      return `${run} cancelled. ${sent} had already gone to the service, which may count it whether or not its answer is read, so ${kept} will be kept in the Library when it arrives.`;
    }
    case 'spent': {
      const got = search
        ? request.records === undefined
          ? 'its records were'
          : `its ${count(request.records)} record${request.records === 1 ? ' was' : 's were'}`
        : `page ${count(request.page)} was`;
      return `${run} cancelled after the request was sent: ${got} downloaded and counted against the account, and saved to the Library.`;
    }
    case 'failed':
      return `${run} cancelled; it had failed anyway: ${outcome.message}`;
  }
}

/**
 * The line a cancelled search leaves on its page: what it cost, and, once its late answer is in, the
 * button that shows it (`<testId>-show`).
 */
export function CancelledNotice({
  testId,
  request,
  outcome,
  onShow,
}: {
  testId: string;
  request: CancelledRequest;
  outcome: CancelledState | null;
  onShow: () => void;
}) {
  return (
    <Text
      fz="sm"
      role="status"
      data-testid={testId}
      data-outcome={outcome?.state ?? 'nothing-spent'}
      style={{ flexShrink: 0 }}
    >
      {describeCancelled(request, outcome)}
      {outcome?.state === 'spent' && (
        <>
          {' '}
          <Button size="compact-sm" variant="subtle" data-testid={`${testId}-show`} onClick={onShow}>
            {request.kind === 'search' ? 'Show this result' : 'Show this page'}
          </Button>
        </>
      )}
    </Text>
  );
}
