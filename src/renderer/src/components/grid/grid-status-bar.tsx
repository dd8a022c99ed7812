import { COUNT, formatNumber } from '@shared/fields';
import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { cellCount } from './cell-range';
import { useGridSelectionStore } from './grid-selection-store';

const fmt = (n: number): string => formatNumber(n, COUNT);

/** The selected block's figures, as a spreadsheet's status bar shows them (from two cells on). */
function SelectionFigures({ gridId, testId }: { gridId: string; testId: string }) {
  const selection = useGridSelectionStore((s) => s.selections[gridId]);
  if (!selection || cellCount(selection.bounds) < 2) return null;
  const { summary } = selection;
  return (
    <Group
      gap="md"
      wrap="nowrap"
      data-testid={`${testId}-selection`}
      data-cells={summary.cells}
      data-numbers={summary.numbers}
      data-sum={summary.numbers > 0 ? summary.sum : ''}
      data-average={summary.average ?? ''}
    >
      <Text fz="xs" c="dimmed" data-testid={`${testId}-selection-cells`}>
        {fmt(summary.cells)} cells selected
      </Text>
      {summary.numbers > 0 && (
        <>
          <Text fz="xs" data-testid={`${testId}-selection-sum`}>
            Sum <b>{summary.sumText}</b>
          </Text>
          <Text fz="xs" data-testid={`${testId}-selection-average`}>
            Average <b>{summary.averageText}</b>
          </Text>
          {summary.numbers < summary.cells && (
            <Text fz="xs" c="dimmed" data-testid={`${testId}-selection-numbers`}>
              over {fmt(summary.numbers)} {summary.numbers === 1 ? 'number' : 'numbers'}
            </Text>
          )}
        </>
      )}
    </Group>
  );
}

/**
 * The line under a grid: its row count on the left (what the grid passes on to it), the selected
 * cells' count, sum and average on the right.
 */
export function GridStatusBar({
  gridId,
  testId,
  children,
}: {
  gridId: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Group
      data-testid={`${testId}-status`}
      justify="space-between"
      wrap="nowrap"
      gap="md"
      px="xs"
      mih={24}
      style={{ flexShrink: 0, whiteSpace: 'nowrap', overflow: 'hidden' }}
    >
      <Group gap="md" wrap="nowrap">
        {children}
      </Group>
      <SelectionFigures gridId={gridId} testId={testId} />
    </Group>
  );
}
