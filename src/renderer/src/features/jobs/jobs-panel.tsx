import { finishedDataset } from '@shared/jobs/jobs-contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  EmptyState,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconBriefcase, IconX } from '@tabler/icons-react';
import { ErrorMessage } from '../../components/error-message';
import { describeSeconds } from '../../components/format';
import { useNow } from '../../components/use-now';
import { showDataset, useSessionStore } from '../../session';
import {
  describeFinished,
  describeSlices,
  describeTimeLeft,
  isFetch,
  liveTimes,
  useJobsStore,
  useRunningJobIds,
  type FinishedJob,
  type RunningJob,
} from './jobs-store';

const fmt = (n: number) => n.toLocaleString('en-US');

/** A job that has said nothing for this long (and is not waiting for a rate limit) is shown as silent. */
const SILENT_AFTER_MS = 15_000;

/** One running job: the only part of the tray that re-renders on its progress events. */
function JobRow({ id }: { id: string }) {
  const job = useJobsStore((s) => s.running[id]);
  if (!job) return null;
  return <JobRowView job={job} />;
}

/** What the row says after the counts: time left, a rate-limit wait, or that no news is coming. */
function timeLine(job: RunningJob, now: number, hostUp: boolean): { text: string; silent: boolean } {
  if (!hostUp) return { text: 'no news while the Portolan host is not reachable', silent: true };
  if (job.waitingForServiceSince !== null) {
    // No request is made meanwhile (main only checks whether the service listens), so nothing is spent.
    const waited = describeSeconds(Math.max(0, now - job.waitingForServiceSince) / 1000);
    return {
      text: `the service is not answering: waiting for it (${waited} so far), and the job goes on by itself when it answers`,
      silent: false,
    };
  }
  const { waitSeconds, etaSeconds } = liveTimes(job, now);
  if (waitSeconds !== null) {
    const total = etaSeconds !== null ? ` · ${describeTimeLeft(etaSeconds)} left` : '';
    return { text: `waiting ${describeSeconds(waitSeconds)} for the rate limit${total}`, silent: false };
  }
  const quiet = now - job.updatedAt;
  if (quiet > SILENT_AFTER_MS) {
    return { text: `no progress for ${describeSeconds(quiet / 1000)}`, silent: true };
  }
  // Nothing done yet: its size (main says it at the start) is shown, and that it is under way.
  if (etaSeconds === null) return { text: job.done === 0 ? 'starting…' : '', silent: false };
  return { text: etaSeconds === 0 ? 'almost done' : `${describeTimeLeft(etaSeconds)} left`, silent: false };
}

function JobRowView({ job }: { job: RunningJob }) {
  const { askCancel, pause } = useJobsStore.getState();
  const hostUp = useSessionStore((s) => s.host.up);
  const pct = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : null;
  const now = useNow(true);
  const { text, silent } = timeLine(job, now, hostUp);
  const forService = job.waitingForServiceSince !== null;
  const waiting = forService || liveTimes(job, now).waitSeconds !== null;
  const stopping = job.cancelling || job.pausing;
  return (
    <Paper
      component="li"
      p="sm"
      data-testid={`job-running-${job.id}`}
      data-job-done={job.done}
      data-job-total={job.total ?? ''}
      data-windows-done={job.windowsDone ?? ''}
      data-windows-known={job.windowsKnown ?? ''}
      data-silent={silent || undefined}
    >
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text fw={600} truncate="end" title={job.label}>
          {job.label}
        </Text>
        <Group gap="xs" wrap="nowrap">
          {isFetch(job) && (
            <Button
              size="xs"
              variant="default"
              data-testid={`job-pause-${job.id}`}
              disabled={stopping}
              onClick={() => void pause(job.id)}
              title="Stop now and keep everything fetched; resume later"
            >
              {job.pausing ? 'Pausing…' : 'Pause'}
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            data-testid={`job-cancel-${job.id}`}
            disabled={stopping}
            onClick={() => void askCancel(job.id)}
          >
            {job.cancelling ? 'Cancelling…' : 'Cancel'}
          </Button>
        </Group>
      </Group>
      <Progress
        my={6}
        size="sm"
        value={pct ?? 100}
        animated={pct === null && !silent}
        striped={pct === null}
        color={silent ? 'gray' : waiting ? 'orange' : undefined}
        data-testid={`job-progress-${job.id}`}
        aria-label={`Progress of ${job.label}`}
        transitionDuration={400}
      />
      <Text fz="xs" c="dimmed" data-testid={`job-detail-${job.id}`}>
        {fmt(job.done)} {job.total !== null ? `of ${fmt(job.total)} ` : ''}
        {job.unit}
        {pct !== null ? ` (${pct}%)` : ''}
        {describeSlices(job)}
        {job.recordsStored !== null && job.unit !== 'records'
          ? ` · ${fmt(job.recordsStored)} records stored`
          : ''}
        {text ? (
          <span
            data-testid={
              forService ? `job-waiting-service-${job.id}` : waiting ? `job-waiting-${job.id}` : undefined
            }
            style={silent ? { color: 'var(--mantine-color-orange-text)' } : undefined}
          >{` · ${text}`}</span>
        ) : null}
      </Text>
    </Paper>
  );
}

const OUTCOME: Record<FinishedJob['outcome'], { label: string; color: string }> = {
  succeeded: { label: 'Done', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
  paused: { label: 'Paused', color: 'orange' },
  interrupted: { label: 'Stopped', color: 'orange' },
};

function FinishedRow({ f }: { f: FinishedJob }) {
  const dismissFinished = useJobsStore((s) => s.dismissFinished);
  const closeTray = useJobsStore((s) => s.closeTray);
  const o = OUTCOME[f.outcome];
  const datasetId = finishedDataset(f);
  return (
    <Paper component="li" p="sm" data-testid={`job-finished-${f.jobId}`} data-outcome={f.outcome}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Badge size="sm" color={o.color} variant="light" style={{ flexShrink: 0 }}>
          {o.label}
        </Badge>
        <Text fz="sm" flex={1} miw={0} data-testid={`job-finished-text-${f.jobId}`}>
          {describeFinished(f)}
        </Text>
        <Tooltip label="Dismiss">
          <ActionIcon
            size="sm"
            data-testid={`job-dismiss-${f.jobId}`}
            onClick={() => dismissFinished(f.jobId)}
            aria-label="Dismiss"
          >
            <IconX size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {datasetId && (
        <Button
          size="xs"
          variant="light"
          mt="xs"
          data-testid={`job-open-${f.jobId}`}
          onClick={() => {
            closeTray();
            showDataset(datasetId);
          }}
        >
          Open in Library
        </Button>
      )}
    </Paper>
  );
}

/** The jobs tray's content: running fetches and exports with progress, finished ones, and unfinished ones to resume. */
export function JobsPanel() {
  // The ids only: a progress event re-renders its own row, not the tray.
  const active = useRunningJobIds();
  const resumable = useJobsStore((s) => s.resumable);
  const finished = useJobsStore((s) => s.finished);
  const error = useJobsStore((s) => s.error);
  const { resume, askDiscard, dismissError } = useJobsStore.getState();
  const empty = !active.length && !resumable.length && !finished.length && !error;
  return (
    <Stack component="section" gap="md" data-testid="jobs-panel" aria-label="Jobs">
      {error?.kind === 'StorageLocked' ? (
        // The Library page says whose program holds the library; here, one line and the way out.
        <Group gap="xs" align="center" wrap="nowrap" data-testid="jobs-locked" data-error-kind={error.kind}>
          <Text fz="sm" c="red" flex={1}>
            Jobs cannot be listed while another program has the library open.
          </Text>
          <Button
            size="xs"
            variant="default"
            data-testid="jobs-retry"
            onClick={() => void useJobsStore.getState().refresh()}
          >
            Retry
          </Button>
        </Group>
      ) : (
        error && (
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <div style={{ flex: 1, minWidth: 0 }}>
              <ErrorMessage error={error} testId="jobs-error" />
            </div>
            <Tooltip label="Dismiss the error">
              <ActionIcon
                mt="sm"
                data-testid="jobs-error-dismiss"
                onClick={dismissError}
                aria-label="Dismiss the error"
              >
                <IconX size={14} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )
      )}
      <DiscardQuestionBox />
      {empty && (
        <EmptyState
          data-testid="jobs-empty"
          icon={<IconBriefcase size={24} stroke={1.6} />}
          title="No jobs"
          description="Fetches past the 10,000-record cap and exports run here, with progress and cancel."
        />
      )}
      {active.length > 0 && (
        <Stack gap="xs">
          <Title order={3}>Running</Title>
          <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} data-testid="jobs-running">
            {active.map((id) => (
              <JobRow key={id} id={id} />
            ))}
          </Stack>
        </Stack>
      )}
      {resumable.length > 0 && (
        <Stack gap="xs">
          <Title order={3}>Unfinished</Title>
          <Text fz="sm" c="dimmed">
            Paused, or stopped by a restart, a limit or an error: each keeps what it fetched.
          </Text>
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            data-testid="jobs-resumable"
          >
            {resumable.map((j, i) => (
              <Paper
                component="li"
                p="sm"
                key={j.id}
                data-testid={`job-resumable-${j.id}`}
                data-status={j.status}
                data-job-done={j.done}
                data-job-total={j.total ?? ''}
                data-job-label={j.label}
              >
                <Text fz="sm">
                  <strong>{j.label}</strong> — {fmt(j.done)}
                  {j.total !== null ? ` of ${fmt(j.total)}` : ''} {j.unit} ({j.status})
                  {j.error ? `: ${j.error}` : ''}
                </Text>
                <Group gap="xs" mt="xs">
                  {/* One primary action in the tray: the first unfinished job's Resume; the others are plain. */}
                  <Button
                    size="xs"
                    variant={i === 0 ? 'filled' : 'default'}
                    data-testid={`job-resume-${j.id}`}
                    onClick={() => void resume(j.id)}
                  >
                    Resume
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    data-testid={`job-discard-${j.id}`}
                    onClick={() => void askDiscard(j.id)}
                  >
                    Discard
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
        </Stack>
      )}
      {finished.length > 0 && (
        <Stack gap="xs">
          <Title order={3}>Finished</Title>
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            data-testid="jobs-finished"
          >
            {finished.map((f) => (
              <FinishedRow key={f.jobId} f={f} />
            ))}
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}

/** Asked before downloaded records are thrown away: they were paid for and cannot be had back for free. */
function DiscardQuestionBox() {
  const q = useJobsStore((s) => s.discardQuestion);
  const { keepDownloads, confirmDiscard, dismissQuestion } = useJobsStore.getState();
  if (!q) return null;
  return (
    <Alert
      color="red"
      role="alertdialog"
      aria-labelledby="job-discard-question"
      data-testid="job-discard-question"
      data-job-id={q.jobId}
    >
      <Text id="job-discard-question" fz="sm" mb="sm">
        Discard {fmt(q.records)} downloaded records? They cost downloads and cannot be recovered.
      </Text>
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          data-testid="job-discard-keep"
          onClick={() => void keepDownloads()}
          title="Keep them; the job stays paused and can be resumed later"
        >
          Keep
        </Button>
        <Button size="xs" color="red" data-testid="job-discard-yes" onClick={() => void confirmDiscard()}>
          Discard
        </Button>
        {q.running && (
          <Button
            size="xs"
            variant="subtle"
            ml="auto"
            data-testid="job-discard-back"
            onClick={() => void dismissQuestion()}
          >
            Go on fetching
          </Button>
        )}
      </Group>
    </Alert>
  );
}
