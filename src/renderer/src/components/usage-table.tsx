import { COUNT, formatNumber } from '@shared/fields';
import { Code, Group, Progress, Table, Text } from '@mantine/core';
import {
  USAGE_METRICS,
  isUnlimited,
  metricLabel,
  parseSearchedHsCodes,
  usedWithNoLimit,
  type MetricSummary,
} from '@shared/spec';

const fmt = (n: number): string => formatNumber(n, COUNT);
const slug = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-');

/** The theme's warning colours: spent, nearly spent (80 %), else the primary colour. */
function meterColour(ratio: number): string {
  return ratio >= 1 ? 'red' : ratio >= 0.8 ? 'orange' : 'blue';
}

/** Known metrics in the spec's order, then whatever else the service reports. */
function metricOrder(metrics: Record<string, MetricSummary>): string[] {
  return [
    ...USAGE_METRICS.filter((m) => m in metrics),
    ...Object.keys(metrics).filter((m) => !(USAGE_METRICS as readonly string[]).includes(m)),
  ];
}

function MetricRow({
  id,
  metric,
  m,
  meters,
}: {
  id: string;
  metric: string;
  m: MetricSummary;
  /** Whether the table has its "Spent" column (some metric of the account has a ceiling). */
  meters: boolean;
}) {
  const unlimited = isUnlimited(m);
  const ratio = m.limit <= 0 ? 0 : Math.min(1, m.current / m.limit);
  const codes = metric === 'searchedHsCodes' ? parseSearchedHsCodes(m.notes) : [];
  const note = metric === 'searchedHsCodes' && codes.length === 0 && m.notes && m.notes !== 'unlimited';
  const label = metricLabel(metric);
  return (
    <Table.Tr data-testid={id} data-metric={metric} data-current={m.current} data-limit={m.limit}>
      <Table.Th scope="row" fw={500}>
        {label}
        {codes.length > 0 && (
          <Group gap={4} mt={4} data-testid={`${id}-codes`} aria-label={`${label}: codes`}>
            {codes.map((c) => (
              <Code key={c}>{c}</Code>
            ))}
          </Group>
        )}
        {note && (
          <Text fz="xs" c="dimmed" mt={2}>
            {m.notes}
          </Text>
        )}
      </Table.Th>
      {unlimited ? (
        // No ceiling: no meter to fill, and "no limit" said once, in the figure that spans both columns.
        <Table.Td
          colSpan={meters ? 2 : 1}
          data-testid={`${id}-text`}
          ta="right"
          style={{ whiteSpace: 'nowrap' }}
        >
          {usedWithNoLimit(m.current)}
        </Table.Td>
      ) : (
        <>
          <Table.Td w={240}>
            <Progress
              value={ratio * 100}
              color={meterColour(ratio)}
              size="md"
              aria-label={`${label}: ${fmt(m.current)} of ${fmt(m.limit)} used`}
            />
          </Table.Td>
          <Table.Td data-testid={`${id}-text`} ta="right" style={{ whiteSpace: 'nowrap' }}>
            {`${fmt(m.current)} / ${fmt(m.limit)}${m.limit > 0 ? ` (${fmt(Math.max(0, m.limit - m.current))} left)` : ''}`}
          </Table.Td>
        </>
      )}
    </Table.Tr>
  );
}

/**
 * One account's usage, metric by metric with a meter and what is left: the one table wherever usage is
 * shown (the Usage page, a connection test), so the same figures look the same. Rows are
 * `${testIdPrefix}-${account}-${metric}` (non-alphanumerics as dashes), with `data-metric`.
 */
export function UsageTable({
  account,
  metrics,
  testIdPrefix,
}: {
  account: string;
  metrics: Record<string, MetricSummary>;
  testIdPrefix: string;
}) {
  const order = metricOrder(metrics);
  // An account without any ceiling has no meter to show: no "Spent" column standing empty.
  const meters = order.some((metric) => !isUnlimited(metrics[metric] as MetricSummary));
  return (
    <Table verticalSpacing="xs" highlightOnHover aria-label={`Usage of account ${account}`}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">What is counted</Table.Th>
          {meters && <Table.Th scope="col">Spent</Table.Th>}
          <Table.Th scope="col" ta="right">
            Used / limit
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {order.map((metric) => (
          <MetricRow
            key={metric}
            id={`${testIdPrefix}-${slug(account)}-${slug(metric)}`}
            metric={metric}
            m={metrics[metric] as MetricSummary}
            meters={meters}
          />
        ))}
      </Table.Tbody>
    </Table>
  );
}
