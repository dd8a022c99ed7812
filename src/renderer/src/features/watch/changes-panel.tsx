import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { FirmGrouping } from '@shared/analysis/analysis-contract';
import { CHANGE_GROUPINGS, type ChangeGrouping } from '@shared/watch/watch-contract';
import { ErrorMessage } from '../../components/error-message';
import { useWatchStore } from './watch-store';
import { formatMoment } from '../../components/format';

const GROUP_LABELS: Record<ChangeGrouping, string> = {
  importers: 'Importers',
  exporters: 'Exporters',
  hs: 'HS codes',
  importerCountries: 'Importer countries',
  exporterCountries: 'Exporter countries',
};

const n = (v: number): string => v.toLocaleString('en-US');
const signed = (v: number, digits = 0): string =>
  `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toLocaleString('en-US', { maximumFractionDigits: digits })}`;
const change = (a: number | null, b: number | null, digits = 0): string =>
  a === null && b === null ? '—' : signed((b ?? 0) - (a ?? 0), digits);

/** What changed between two snapshots of the watched query, grouped, each row opening its shipments. */
export function ChangesPanel() {
  const { setChanges, drill } = useWatchStore.getState();
  const detail = useWatchStore((s) => s.detail);
  const from = useWatchStore((s) => s.changesFrom);
  const to = useWatchStore((s) => s.changesTo);
  const by = useWatchStore((s) => s.changesBy);
  const firms = useWatchStore((s) => s.changesFirms);
  const changes = useWatchStore((s) => s.changes);
  const error = useWatchStore((s) => s.changesError);
  if (!detail) return null;
  if (detail.snapshots.length < 2) {
    return (
      <Text c="dimmed" data-testid="watch-changes-none">
        What changed appears once the query has two snapshots: refresh it to take the next one.
      </Text>
    );
  }
  const options = detail.snapshots.map((s) => ({
    value: String(s.no),
    label: `${s.no} · ${formatMoment(s.takenAt)}`,
  }));
  const t = changes?.totals;
  const firmGrouping = by === 'importers' || by === 'exporters';
  return (
    <Stack gap="sm" component="section" data-testid="watch-changes">
      <Title order={3} fz="lg">
        What changed
      </Title>
      <Group gap="md" align="flex-end" wrap="wrap">
        <NativeSelect
          label="From snapshot"
          w={230}
          data-testid="watch-changes-from"
          value={String(from ?? '')}
          onChange={(e) => void setChanges({ changesFrom: Number(e.currentTarget.value) })}
          data={options}
        />
        <NativeSelect
          label="To snapshot"
          w={230}
          data-testid="watch-changes-to"
          value={String(to ?? '')}
          onChange={(e) => void setChanges({ changesTo: Number(e.currentTarget.value) })}
          data={options}
        />
        <NativeSelect
          label="By"
          w={190}
          data-testid="watch-changes-by"
          value={by}
          onChange={(e) => void setChanges({ changesBy: e.currentTarget.value as ChangeGrouping })}
          data={CHANGE_GROUPINGS.map((g) => ({ value: g, label: GROUP_LABELS[g] }))}
        />
        {firmGrouping && (
          <SegmentedControl
            data-testid="watch-changes-firms"
            aria-label="Firms"
            value={firms}
            onChange={(v) => void setChanges({ changesFirms: v as FirmGrouping })}
            data={[
              { value: 'asWritten', label: 'As written' },
              { value: 'resolved', label: 'Resolved' },
            ]}
          />
        )}
      </Group>
      {error && <ErrorMessage error={error} testId="watch-changes-error" />}
      {changes?.warnings.map((w) => (
        <Alert key={w} color="yellow" data-testid="watch-changes-warning">
          {w}
        </Alert>
      ))}
      {changes && t && (
        <>
          <Group gap="lg" data-testid="watch-changes-summary">
            <Text>
              <b>{n(t.added)}</b> shipments arrived, <b>{n(t.lost)}</b> gone
            </Text>
            {firmGrouping && (
              <Text>
                <b>{n(changes.counts.new)}</b> new {by === 'importers' ? 'importers' : 'exporters'},{' '}
                <b>{n(changes.counts.lost)}</b> lost
              </Text>
            )}
            <Text>Value {change(t.usdFobBefore, t.usdFobAfter)} USD</Text>
            <Text>Weight {change(t.kgBefore, t.kgAfter)} kg</Text>
            <Button
              size="xs"
              variant="default"
              disabled={!changes.drillAdded}
              onClick={() => drill(null, 'added')}
              data-testid="watch-changes-open-added"
            >
              Open arrived shipments
            </Button>
          </Group>
          <Table striped highlightOnHover withTableBorder fz="sm" data-testid="watch-changes-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{GROUP_LABELS[by]}</Table.Th>
                {/* A set width: a table squeezes the badge's cell down to an ellipsis ("N…") otherwise. */}
                <Table.Th w={64} />
                <Table.Th ta="right">Shipments</Table.Th>
                <Table.Th ta="right">Arrived</Table.Th>
                <Table.Th ta="right">Gone</Table.Th>
                <Table.Th ta="right">Value change (USD)</Table.Th>
                <Table.Th ta="right">Weight change (kg)</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.rows.slice(0, 200).map((r) => (
                <Table.Tr
                  key={r.key}
                  style={{ cursor: 'pointer' }}
                  tabIndex={0}
                  onClick={() => drill(r, r.added > 0 ? 'added' : r.lost > 0 ? 'lost' : 'all')}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') drill(r, r.added > 0 ? 'added' : r.lost > 0 ? 'lost' : 'all');
                  }}
                  data-testid="watch-changes-row"
                >
                  <Table.Td>
                    {r.name}
                    {r.detail ? (
                      <Text span c="dimmed" fz="xs">
                        {' '}
                        {r.detail}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td w={64}>
                    {r.status !== 'kept' && (
                      <Badge size="sm" color={r.status === 'new' ? 'teal' : 'red'} variant="light">
                        {r.status === 'new' ? 'New' : 'Lost'}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">
                    {n(r.shipmentsBefore)} → {n(r.shipmentsAfter)}
                  </Table.Td>
                  <Table.Td ta="right">{n(r.added)}</Table.Td>
                  <Table.Td ta="right">{n(r.lost)}</Table.Td>
                  <Table.Td ta="right">{change(r.usdFobBefore, r.usdFobAfter)}</Table.Td>
                  <Table.Td ta="right">{change(r.kgBefore, r.kgAfter)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {changes.counts.groups > 200 && (
            <Text c="dimmed" fz="sm">
              The 200 largest changes of {n(changes.counts.groups)}.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
