import { COUNT, formatNumber } from '@shared/fields';
import { ActionIcon, Drawer, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { GridApi } from 'ag-grid-community';
import { useGridSelectionStore } from './grid-selection-store';
import { readRecord } from './record-view';

const fmt = (n: number): string => formatNumber(n, COUNT);

/**
 * The record view of a grid: every field of one row, grouped as the grid groups its columns, in a
 * drawer from the right. Enter or a double-click on a row opens it; ↑/↓ buttons step through the
 * rows; Escape closes it and the focus goes back to the grid, on the row last shown.
 */
export function RecordDrawer<T>({
  gridId,
  testId,
  api,
  looseTitle,
  completeRow,
}: {
  gridId: string;
  testId: string;
  api: GridApi<T> | null;
  /** The group of columns outside any column group (a firm grid's fields). */
  looseTitle: string;
  /**
   * Reads a row's every field when the grid holds only some (the library grid reads the shown
   * columns); the record view shows the whole record.
   */
  completeRow?: (row: number) => Promise<unknown>;
}) {
  const row = useGridSelectionStore((s) => (s.record?.gridId === gridId ? s.record.row : null));
  const { openRecord, closeRecord } = useGridSelectionStore.getState();
  const returnColumn = useRef<string | null>(null);
  const open = row !== null && api !== null && !api.isDestroyed();

  useEffect(() => {
    if (open) returnColumn.current = api.getFocusedCell()?.column.getColId() ?? null;
    // Only when it opens: stepping through rows keeps the column the analyst came from.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // Bumped when a row's every field has been read: the record is read from the grid again.
  const [completed, setCompleted] = useState(0);
  // The row whose every field is in the grid (what the view shows is then the whole record).
  const [completeAt, setCompleteAt] = useState<number | null>(null);
  useEffect(() => {
    if (!open || row === null || !completeRow) return;
    let live = true;
    void completeRow(row).then(() => {
      if (!live) return;
      setCompleted((n) => n + 1);
      setCompleteAt(row);
    });
    return () => {
      live = false;
    };
  }, [open, row, completeRow]);
  const groups = useMemo(
    () => (open && row !== null ? readRecord(api, row, looseTitle) : null),
    // `completed`: the row's data changed in the grid (every field read), not the row itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [open, api, row, looseTitle, completed],
  );
  const total = open ? api.getDisplayedRowCount() : 0;

  const close = () => {
    closeRecord();
    if (!api || api.isDestroyed() || row === null) return;
    const col = returnColumn.current ?? api.getAllDisplayedColumns()[0]?.getColId();
    api.ensureIndexVisible(row);
    // After the drawer has gone: the grid's cell takes the focus back, on the row last shown.
    window.setTimeout(() => {
      if (!api.isDestroyed() && col) api.setFocusedCell(row, col);
    }, 0);
  };
  const step = (by: number) => {
    if (row === null) return;
    const next = row + by;
    if (next >= 0 && next < total) openRecord(gridId, next);
  };

  return (
    <Drawer
      opened={open}
      onClose={close}
      position="right"
      size={440}
      returnFocus={false}
      // On the panel itself (the drawer's root has no box of its own).
      attributes={{ content: { 'data-testid': `${testId}-record` } }}
      title={
        <Group gap="sm" wrap="nowrap">
          <Title order={3}>Record</Title>
          {row !== null && (
            <Text fz="sm" c="dimmed" data-testid={`${testId}-record-position`}>
              {fmt(row + 1)} of {fmt(total)}
            </Text>
          )}
          <Tooltip label="Previous row">
            <ActionIcon
              variant="subtle"
              aria-label="Previous row"
              data-testid={`${testId}-record-previous`}
              disabled={row === null || row <= 0}
              onClick={() => step(-1)}
            >
              <IconChevronUp size={16} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Next row">
            <ActionIcon
              variant="subtle"
              aria-label="Next row"
              data-testid={`${testId}-record-next`}
              disabled={row === null || row >= total - 1}
              onClick={() => step(1)}
            >
              <IconChevronDown size={16} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
        </Group>
      }
    >
      {groups === null ? (
        <Text c="dimmed">This row is not loaded yet: scroll to it in the grid.</Text>
      ) : (
        <Stack
          gap="md"
          data-testid={`${testId}-record-fields`}
          data-complete={!completeRow || completeAt === row ? 'true' : 'false'}
        >
          {groups.map((g) => (
            <section key={g.name} data-testid={`${testId}-record-group`} data-group={g.name}>
              <Title order={4} fz="sm" mb="xs">
                {g.name}
              </Title>
              <Table fz="sm" withRowBorders={false} verticalSpacing={2} layout="fixed">
                <Table.Tbody>
                  {g.fields.map((f) => (
                    <Table.Tr key={f.colId} data-field={f.colId}>
                      <Table.Th w={140} fw={500} c="dimmed" style={{ verticalAlign: 'top' }}>
                        {f.label}
                      </Table.Th>
                      <Table.Td
                        style={{ overflowWrap: 'anywhere' }}
                        data-testid={`${testId}-record-value`}
                        data-missing={f.missing ? 'true' : undefined}
                      >
                        {f.missing ? (
                          <Text span c="dimmed" fz="sm" fs="italic">
                            {f.text}
                          </Text>
                        ) : (
                          f.text || (
                            <Text span c="dimmed" fz="sm">
                              —
                            </Text>
                          )
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </section>
          ))}
        </Stack>
      )}
    </Drawer>
  );
}
