import { useRef, type ReactNode } from 'react';
import { Box } from '@mantine/core';
import { useWholeRowsHeight } from './whole-rows';

/**
 * The filter form's fields, scrolling inside their panel on a small window so the run bar under them
 * and the first rows of a result stay in view. The area ends between fields and scrolling stops at a
 * field's top, so a label never shows with its input cut off below it.
 */
export function FilterScroll({
  min,
  reserve,
  testId,
  children,
}: {
  /** The least height of the area, in px. */
  min: number;
  /** What the rest of the window needs (header, run bar, result), in px. */
  reserve: number;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const height = useWholeRowsHeight(ref, min, reserve);
  return (
    <Box
      ref={ref}
      className="filter-scroll"
      data-testid={testId}
      // Until the fields are measured: the same limit, not yet cut at a field.
      mah={height ?? `max(${min}px, calc(100dvh - ${reserve}px))`}
      mx={-4}
      px={4}
    >
      {children}
    </Box>
  );
}
