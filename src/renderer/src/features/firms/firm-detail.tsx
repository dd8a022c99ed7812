import { COUNT, formatNumber } from '@shared/fields';
import {
  ActionIcon,
  Box,
  Button,
  Checkbox,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowBackUp, IconTableShortcut, IconX } from '@tabler/icons-react';
import { EVIDENCE_LABELS, type FirmDetailView } from '@shared/resolution/resolution-contract';
import { ErrorMessage } from '../../components/error-message';
import { describeEvidence, linksBySpelling, spellingNames } from './evidence-text';
import { useShallow } from 'zustand/react/shallow';
import { selectEmptyList, splitReason, useResolvedFirmsStore } from './resolved-firms-store';
import { formatMoment } from '../../components/format';

const fmt = (n: number): string => formatNumber(n, COUNT);
const plural = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;

/** The open firm: its shipments by dataset, every spelling with the evidence that linked it, decisions. */
export function FirmDetail() {
  const openId = useResolvedFirmsStore((s) => s.openId);
  const detail = useResolvedFirmsStore((s) => s.detail);
  const empty = useResolvedFirmsStore(useShallow(selectEmptyList));
  if (!openId) {
    return (
      <Paper withBorder p="md" h="100%" data-testid="firm-detail-empty" data-list-empty={empty !== null}>
        <Stack gap="xs">
          <Title order={2}>{empty?.title ?? 'No firm open'}</Title>
          <Text c="dimmed">
            {empty?.text ??
              'Click a firm in the list (or press Enter on it) to see its spellings, the evidence that joined them and its shipments. Tick two or more firms to merge them.'}
          </Text>
        </Stack>
      </Paper>
    );
  }
  return (
    <Paper
      withBorder
      h="100%"
      data-testid="firm-detail"
      data-firm-id={openId}
      data-loading={detail.loading ? 'true' : 'false'}
      style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      {detail.error ? (
        <Stack p="md" gap="sm">
          <DetailClose />
          <ErrorMessage error={detail.error} testId="firm-detail-error" />
        </Stack>
      ) : detail.value ? (
        <DetailBody d={detail.value} />
      ) : (
        <Group p="md" gap="xs">
          <Loader size="sm" />
          <Text>Loading the firm…</Text>
        </Group>
      )}
    </Paper>
  );
}

function DetailClose() {
  return (
    <Tooltip label="Close (Escape)">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label="Close the firm"
        data-testid="firm-detail-close"
        onClick={() => void useResolvedFirmsStore.getState().openFirm(null)}
      >
        <IconX size={16} stroke={1.6} />
      </ActionIcon>
    </Tooltip>
  );
}

function DetailBody({ d }: { d: FirmDetailView }) {
  const splitIds = useResolvedFirmsStore((s) => s.splitIds);
  const busy = useResolvedFirmsStore((s) => s.busy);
  const { toggleSplit, askSplit, openShipments, undoDecision, setTab } = useResolvedFirmsStore.getState();
  const nameOf = spellingNames(d.spellings);
  const links = linksBySpelling(d.evidence);
  const why = splitReason(d, splitIds);
  const f = d.firm;
  return (
    <>
      <Group justify="space-between" align="flex-start" wrap="nowrap" p="md" pb="xs">
        <Stack gap={2} miw={0}>
          <Title order={2} data-testid="firm-detail-name" style={{ overflowWrap: 'anywhere' }}>
            {f.name}
          </Title>
          <Text c="dimmed" fz="sm" data-testid="firm-detail-summary">
            {f.countryName ?? f.country} · {plural(d.spellings.length, 'spelling', 'spellings')} ·{' '}
            {fmt(f.asImporter)} as importer · {fmt(f.asExporter)} as exporter
            {f.listed > 0 ? ` · ${fmt(f.listed)} in firm lists` : ''}
          </Text>
        </Stack>
        <DetailClose />
      </Group>
      <ScrollArea flex={1} mih={0} px="md" pb="md" type="auto">
        <Stack gap="md">
          <Stack gap="xs" data-testid="firm-detail-shipments">
            <Title order={3}>Shipments</Title>
            {d.datasets.length === 0 ? (
              <Text c="dimmed" fz="sm">
                No shipment dataset in view names this firm (it appears only in firm lists).
              </Text>
            ) : (
              d.datasets.map((ds, i) => (
                <Group key={ds.datasetId} justify="space-between" wrap="nowrap" gap="sm">
                  <Stack gap={0} miw={0}>
                    <Text fz="sm" truncate="end" title={ds.name}>
                      {ds.name}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      saved {formatMoment(ds.fetchedAt)}
                    </Text>
                  </Stack>
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconTableShortcut size={16} stroke={1.6} />}
                    data-testid={`firm-detail-open-${i}`}
                    data-rows={ds.rows}
                    onClick={() => openShipments(ds.datasetId)}
                    style={{ flexShrink: 0 }}
                  >
                    Open {plural(ds.rows, 'shipment', 'shipments')}
                  </Button>
                </Group>
              ))
            )}
          </Stack>

          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Title order={3}>Spellings</Title>
              <Tooltip label={why ?? 'Make the ticked spellings a firm of their own'}>
                <Button
                  size="xs"
                  variant="default"
                  data-testid="firm-split"
                  disabled={why !== null || busy}
                  onClick={askSplit}
                >
                  {splitIds.length > 0
                    ? `Split off ${plural(splitIds.length, 'spelling', 'spellings')}…`
                    : 'Split off…'}
                </Button>
              </Tooltip>
            </Group>
            <Table fz="sm" striped highlightOnHover data-testid="firm-spellings">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={32}>
                    <VisuallyHidden>Split off</VisuallyHidden>
                  </Table.Th>
                  <Table.Th>Spelling</Table.Th>
                  <Table.Th>Firm code</Table.Th>
                  <Table.Th ta="right">Shipments</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.spellings.map((s, i) => (
                  <Table.Tr key={s.partyId} data-testid={`firm-spelling-${i}`} data-party-id={s.partyId}>
                    <Table.Td>
                      <Checkbox
                        size="xs"
                        aria-label={`Split off “${s.name}”`}
                        data-testid={`firm-spelling-tick-${i}`}
                        checked={splitIds.includes(s.partyId)}
                        onChange={() => toggleSplit(s.partyId)}
                        disabled={d.spellings.length < 2}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text
                        fz="sm"
                        style={{ overflowWrap: 'anywhere' }}
                        data-testid={`firm-spelling-name-${i}`}
                      >
                        {s.name}
                      </Text>
                      {(links.get(s.partyId) ?? []).length > 0 && (
                        <Text fz="xs" c="dimmed" data-testid={`firm-spelling-links-${i}`}>
                          {(links.get(s.partyId) ?? []).map((k) => EVIDENCE_LABELS[k]).join(' · ')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td c={s.code ? undefined : 'dimmed'} data-testid={`firm-spelling-code-${i}`}>
                      {s.code || 'none'}
                    </Table.Td>
                    <Table.Td ta="right">{fmt(s.asImporter + s.asExporter)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>

          {d.evidence.length > 0 && (
            <Stack gap="xs">
              <Title order={3}>Evidence</Title>
              <Stack gap="xs" data-testid="firm-evidence">
                {d.evidence.map((e, i) => {
                  const line = describeEvidence(e);
                  return (
                    <Box
                      key={`${e.a}-${e.b}-${e.kind}`}
                      data-testid={`firm-evidence-${i}`}
                      data-kind={e.kind}
                    >
                      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                        {nameOf(e.a)}{' '}
                        <Text span c="dimmed">
                          ↔
                        </Text>{' '}
                        {nameOf(e.b)}
                      </Text>
                      <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        <Text
                          span
                          fz="xs"
                          fw={600}
                          c="var(--mantine-color-text)"
                          data-testid={`firm-evidence-rule-${i}`}
                        >
                          {line.rule}
                        </Text>
                        : {line.matched}
                      </Text>
                    </Box>
                  );
                })}
              </Stack>
            </Stack>
          )}

          {d.review.length > 0 && (
            <Group justify="space-between" wrap="nowrap" data-testid="firm-detail-review">
              <Text fz="sm">
                {plural(d.review.length, 'close call waits', 'close calls wait')} in the review queue for this
                firm.
              </Text>
              <Button size="xs" variant="subtle" onClick={() => setTab('review')}>
                Review
              </Button>
            </Group>
          )}

          {d.decisions.length > 0 && (
            <Stack gap="xs" data-testid="firm-decisions">
              <Title order={3}>Your decisions</Title>
              {d.decisions.map((x, i) => (
                <Group key={x.id} justify="space-between" wrap="nowrap" gap="sm">
                  <Text fz="sm" miw={0} style={{ overflowWrap: 'anywhere' }}>
                    “{x.a.name}” and “{x.b.name}” are {x.verdict === 'same' ? 'one firm' : 'different firms'}
                  </Text>
                  <Tooltip label="Take this decision back">
                    <Button
                      size="xs"
                      variant="subtle"
                      leftSection={<IconArrowBackUp size={16} stroke={1.6} />}
                      data-testid={`firm-decision-undo-${i}`}
                      disabled={busy}
                      onClick={() => void undoDecision(x.id)}
                      style={{ flexShrink: 0 }}
                    >
                      Undo
                    </Button>
                  </Tooltip>
                </Group>
              ))}
            </Stack>
          )}
        </Stack>
      </ScrollArea>
    </>
  );
}
