import { Text } from '@mantine/core';

/**
 * The note over a result that answers an earlier search, because the last one failed or was
 * cancelled: Search's records and Firms' firms in one wording, so neither page passes an old answer
 * off as the new one.
 */
export function PreviousResultNote({
  testId,
  last,
  what,
}: {
  testId: string;
  /** How the last search ended. */
  last: 'error' | 'cancelled';
  what: 'records' | 'firms';
}) {
  const run = what === 'records' ? 'search' : 'firm search';
  return (
    <Text fz="sm" c="orange" role="note" data-testid={testId} style={{ flexShrink: 0 }}>
      {last === 'error'
        ? `The last ${run} failed. The ${what} below are the result of the previous search, not of the one that failed.`
        : `The last ${run} was cancelled. The ${what} below are the result of the previous search.`}
    </Text>
  );
}
