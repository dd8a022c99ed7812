import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuickFilter } from './quick-filter-store';

/**
 * The quick filter above a grid: one text matched against every column, kept for the session per
 * grid (`useQuickFilter(gridKey)`, which the page also reads to filter its grid). A search field, so
 * Escape clears it.
 */
export function QuickFilterInput(props: {
  gridKey: string;
  testId: string;
  /** What the filter covers, when it is more than the rows on screen. */
  placeholder?: string;
  width?: number;
}) {
  const [text, setText] = useQuickFilter(props.gridKey);
  return (
    <TextInput
      type="search"
      size="xs"
      w={props.width ?? 200}
      leftSection={<IconSearch size={14} stroke={1.6} />}
      placeholder={props.placeholder ?? 'Quick filter'}
      aria-label="Quick filter"
      value={text}
      data-testid={props.testId}
      onChange={(e) => setText(e.currentTarget.value)}
    />
  );
}
