import { COUNT, formatNumber } from '@shared/fields';
import { useEffect, useRef } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Kbd,
  Loader,
  NavLink,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconX } from '@tabler/icons-react';
import type { PartyView, ReviewPairView } from '@shared/resolution/resolution-contract';
import { ErrorMessage } from '../../components/error-message';
import { describeEvidence } from './evidence-text';
import { reviewKey } from './review-keys';
import { runReviewAction, selectCurrentPair, useReviewStore } from './review-store';

const fmt = (n: number): string => formatNumber(n, COUNT);

/**
 * The review queue: the close calls resolution did not decide, one pair at a time, side by side with
 * the evidence. A same firm, R different firms, arrows move, Ctrl+Z takes the last verdict back.
 */
export function ReviewView() {
  const total = useReviewStore((s) => s.total);
  const root = useRef<HTMLDivElement>(null);
  const loaded = total !== null;
  // The queue takes the keyboard as it opens (arrows on the tabs would move between the tabs).
  useEffect(() => {
    if (loaded) root.current?.focus({ preventScroll: true });
  }, [loaded]);
  return (
    <Box
      ref={root}
      tabIndex={-1}
      h="100%"
      data-testid="review-view"
      data-total={total ?? ''}
      aria-label="Review queue"
      style={{ outline: 'none' }}
    >
      <ReviewContent />
    </Box>
  );
}

function ReviewContent() {
  const pairs = useReviewStore((s) => s.pairs);
  const index = useReviewStore((s) => s.index);
  const total = useReviewStore((s) => s.total);
  const loading = useReviewStore((s) => s.loading);
  const error = useReviewStore((s) => s.error);
  const current = useReviewStore(selectCurrentPair);

  useEffect(() => {
    void useReviewStore.getState().load();
    const onKey = (e: KeyboardEvent) => {
      const action = reviewKey(e);
      if (!action) return;
      e.preventDefault();
      runReviewAction(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (error) return <ErrorMessage error={error} testId="review-error" />;
  if (total === null && loading) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text>Reading the review queue…</Text>
      </Group>
    );
  }
  if (pairs.length === 0) {
    return (
      <Paper withBorder p="lg" data-testid="review-empty">
        <Stack gap="xs">
          <Title order={2}>Nothing to review</Title>
          <Text c="dimmed">
            Every spelling in view was either joined to a firm by clear evidence or kept apart. New datasets
            may bring close calls here.
          </Text>
          <ReviewUndoBar />
        </Stack>
      </Paper>
    );
  }
  return (
    <Group align="stretch" gap="md" wrap="nowrap" h="100%">
      <Paper withBorder w={300} style={{ flexShrink: 0, display: 'flex', flexDirection: 'column' }}>
        <Text fz="sm" c="dimmed" px="sm" py="xs" data-testid="review-count">
          {fmt(total ?? pairs.length)} {total === 1 ? 'pair' : 'pairs'} to review
        </Text>
        <ScrollArea flex={1} mih={0} type="auto">
          {pairs.map((p, i) => (
            <NavLink
              key={`${p.a.partyId}|${p.b.partyId}`}
              component="button"
              type="button"
              active={i === index}
              data-testid={`review-item-${i}`}
              // The keys move through the list; one Tab stop is enough.
              tabIndex={-1}
              label={`${p.a.name} ↔ ${p.b.name}`}
              description={p.reason}
              onClick={() => useReviewStore.getState().select(i)}
              styles={{ label: { overflowWrap: 'anywhere' } }}
            />
          ))}
        </ScrollArea>
      </Paper>
      <Stack flex={1} miw={0} gap="md">
        {current && <PairCard pair={current} position={index + 1} />}
      </Stack>
    </Group>
  );
}

function PairCard({ pair, position }: { pair: ReviewPairView; position: number }) {
  const total = useReviewStore((s) => s.total);
  const deciding = useReviewStore((s) => s.deciding);
  const decideError = useReviewStore((s) => s.decideError);
  const line = describeEvidence(pair);
  const { decide, move } = useReviewStore.getState();
  return (
    <Paper withBorder p="md" data-testid="review-pair" data-a={pair.a.partyId} data-b={pair.b.partyId}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2}>Are these one firm?</Title>
          <Text c="dimmed" fz="sm" data-testid="review-position">
            Pair {fmt(position)} of {fmt(total ?? 0)}
          </Text>
        </Group>
        <SimpleGrid cols={2} spacing="md">
          <PartyCard party={pair.a} testId="review-a" />
          <PartyCard party={pair.b} testId="review-b" />
        </SimpleGrid>
        <Stack gap={4} data-testid="review-evidence">
          <Group gap="xs">
            <Badge variant="light">{line.rule}</Badge>
            <Text fz="sm">{line.matched}</Text>
          </Group>
          <Text fz="sm" c="dimmed">
            Not joined by itself: {pair.reason}.
          </Text>
        </Stack>
        {decideError && <ErrorMessage error={decideError} testId="review-decide-error" />}
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm">
            <Button
              leftSection={<IconCheck size={16} stroke={1.6} />}
              rightSection={<Kbd size="xs">A</Kbd>}
              loading={deciding}
              data-testid="review-same"
              onClick={() => void decide('same')}
            >
              Same firm
            </Button>
            <Button
              variant="default"
              leftSection={<IconX size={16} stroke={1.6} />}
              rightSection={<Kbd size="xs">R</Kbd>}
              disabled={deciding}
              data-testid="review-different"
              onClick={() => void decide('different')}
            >
              Different firms
            </Button>
          </Group>
          <Group gap="sm">
            <Button variant="subtle" data-testid="review-previous" onClick={() => move(-1)}>
              Previous
            </Button>
            <Button variant="subtle" data-testid="review-next" onClick={() => move(1)}>
              Skip
            </Button>
          </Group>
        </Group>
        <Text fz="xs" c="dimmed">
          Keys: <Kbd size="xs">A</Kbd> same firm · <Kbd size="xs">R</Kbd> different firms ·{' '}
          <Kbd size="xs">↓</Kbd> or <Kbd size="xs">→</Kbd> skip · <Kbd size="xs">↑</Kbd> or{' '}
          <Kbd size="xs">←</Kbd> back · <Kbd size="xs">Ctrl</Kbd>+<Kbd size="xs">Z</Kbd> undo
        </Text>
        <ReviewUndoBar />
      </Stack>
    </Paper>
  );
}

function ReviewUndoBar() {
  const last = useReviewStore((s) => s.lastChange);
  const deciding = useReviewStore((s) => s.deciding);
  if (!last) return null;
  return (
    <Alert color="green" variant="light" data-testid="review-last" p="xs">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          Saved: {last.label}.
        </Text>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconArrowBackUp size={16} stroke={1.6} />}
          disabled={deciding}
          data-testid="review-undo"
          onClick={() => void useReviewStore.getState().undoLast()}
          style={{ flexShrink: 0 }}
        >
          Undo
        </Button>
      </Group>
    </Alert>
  );
}

function PartyCard({ party, testId }: { party: PartyView; testId: string }) {
  return (
    <Paper withBorder p="sm" data-testid={testId} data-party-id={party.partyId}>
      <Stack gap={4}>
        <Text fw={600} fz="lg" style={{ overflowWrap: 'anywhere' }} data-testid={`${testId}-name`}>
          {party.name || '(no name)'}
        </Text>
        <Text fz="sm" c="dimmed">
          {party.countryName ?? party.country}
          {party.code ? ` · firm code ${party.code}` : ' · no firm code'}
        </Text>
        <Text fz="sm">
          {fmt(party.asImporter)} as importer · {fmt(party.asExporter)} as exporter
          {party.listed > 0 ? ` · ${fmt(party.listed)} in firm lists` : ''}
        </Text>
      </Stack>
    </Paper>
  );
}
