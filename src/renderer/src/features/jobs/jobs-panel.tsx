import { useEffect, useState } from 'react';
import { finishedDataset } from '@shared/jobs/jobs-contract';
import { ErrorMessage } from '../../components/error-message';
import { showDataset } from '../../session';
import {
  describeFinished,
  describeSeconds,
  isFetch,
  liveTimes,
  useJobsStore,
  useRunningJobIds,
  type RunningJob,
} from './jobs-store';

const fmt = (n: number) => n.toLocaleString('en-US');

/** The clock, re-read every second while `until` is ahead: a countdown needs a render per second, not per event. */
function useNow(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null || until <= Date.now()) return undefined;
    const t = setInterval(() => {
      const t2 = Date.now();
      setNow(t2);
      if (t2 >= until) clearInterval(t);
    }, 1000);
    // The clock may have stood still since the last wait: re-read it at once, not a second late.
    const first = setTimeout(() => setNow(Date.now()), 0);
    return () => {
      clearTimeout(first);
      clearInterval(t);
    };
  }, [until]);
  return now;
}

/** One running job: the only part of the tray that re-renders on its progress events. */
function JobRow({ id }: { id: string }) {
  const job = useJobsStore((s) => s.running[id]);
  if (!job) return null;
  return <JobRowView job={job} />;
}

function JobRowView({ job }: { job: RunningJob }) {
  const { askCancel, pause } = useJobsStore.getState();
  const pct = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : null;
  const now = useNow(job.waitingUntil);
  const { waitSeconds, etaSeconds } = liveTimes(job, now);
  const stopping = job.cancelling || job.pausing;
  return (
    <li
      className="job"
      data-testid={`job-running-${job.id}`}
      data-job-done={job.done}
      data-job-total={job.total ?? ''}
      data-windows-done={job.windowsDone ?? ''}
      data-windows-known={job.windowsKnown ?? ''}
    >
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <strong>{job.label}</strong>
        {isFetch(job) && (
          <button
            type="button"
            data-testid={`job-pause-${job.id}`}
            disabled={stopping}
            onClick={() => void pause(job.id)}
            style={{ marginLeft: 'auto' }}
            title="Stop now and keep everything fetched; resume later"
          >
            {job.pausing ? 'Pausing…' : 'Pause'}
          </button>
        )}
        <button
          type="button"
          data-testid={`job-cancel-${job.id}`}
          disabled={stopping}
          onClick={() => void askCancel(job.id)}
          style={isFetch(job) ? {} : { marginLeft: 'auto' }}
        >
          {job.cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      <progress
        data-testid={`job-progress-${job.id}`}
        max={job.total ?? undefined}
        value={job.total ? job.done : undefined}
        style={{ width: '100%' }}
        aria-label={`Progress of ${job.label}`}
      />
      <small data-testid={`job-detail-${job.id}`}>
        {fmt(job.done)} {job.total !== null ? `of ${fmt(job.total)} ` : ''}
        {job.unit}
        {pct !== null ? ` (${pct}%)` : ''}
        {job.windowsKnown ? ` · windows ${fmt(job.windowsDone ?? 0)}/${fmt(job.windowsKnown)}` : ''}
        {job.recordsStored !== null && job.unit !== 'records'
          ? ` · ${fmt(job.recordsStored)} records stored`
          : ''}
        {etaSeconds !== null ? ` · about ${describeSeconds(etaSeconds)} left` : ''}
        {waitSeconds !== null ? (
          <span
            data-testid={`job-waiting-${job.id}`}
          >{` · waiting ${describeSeconds(waitSeconds)} for the rate limit`}</span>
        ) : (
          ''
        )}
      </small>
    </li>
  );
}

/** The jobs tray: running fetches and exports with progress and cancel, finished ones, and fetches left over from before a restart. */
export function JobsPanel() {
  // The ids only: a progress event re-renders its own row, not the tray.
  const active = useRunningJobIds();
  const resumable = useJobsStore((s) => s.resumable);
  const finished = useJobsStore((s) => s.finished);
  const error = useJobsStore((s) => s.error);
  const { resume, askDiscard, dismissFinished, dismissError } = useJobsStore.getState();
  if (!active.length && !resumable.length && !finished.length && !error) return null;
  return (
    <aside
      className="jobs-panel"
      data-testid="jobs-panel"
      aria-label="Jobs"
      style={{ border: '1px solid #8884', borderRadius: 6, padding: 8, margin: '8px 0' }}
    >
      <strong data-testid="jobs-heading">Jobs</strong>
      {error && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'start' }}>
          <ErrorMessage error={error} testId="jobs-error" />
          <button
            type="button"
            data-testid="jobs-error-dismiss"
            onClick={dismissError}
            aria-label="Dismiss the error"
          >
            ×
          </button>
        </div>
      )}
      <DiscardQuestionBox />
      {active.length > 0 && (
        <ul data-testid="jobs-running" style={{ listStyle: 'none', padding: 0 }}>
          {active.map((id) => (
            <JobRow key={id} id={id} />
          ))}
        </ul>
      )}
      {finished.length > 0 && (
        <ul data-testid="jobs-finished" style={{ listStyle: 'none', padding: 0 }}>
          {finished.map((f) => {
            const datasetId = finishedDataset(f);
            return (
              <li key={f.jobId} data-testid={`job-finished-${f.jobId}`} data-outcome={f.outcome}>
                <span data-testid={`job-finished-text-${f.jobId}`}>{describeFinished(f)}</span>{' '}
                {datasetId && (
                  <button
                    type="button"
                    data-testid={`job-open-${f.jobId}`}
                    onClick={() => showDataset(datasetId)}
                  >
                    Open in Library
                  </button>
                )}
                <button
                  type="button"
                  data-testid={`job-dismiss-${f.jobId}`}
                  onClick={() => dismissFinished(f.jobId)}
                  aria-label="Dismiss"
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {resumable.length > 0 && (
        <>
          <p style={{ margin: '4px 0' }}>
            Unfinished jobs (paused, or stopped by a restart, a limit or an error) keep what they fetched:
          </p>
          <ul data-testid="jobs-resumable" style={{ listStyle: 'none', padding: 0 }}>
            {resumable.map((j) => (
              <li
                key={j.id}
                data-testid={`job-resumable-${j.id}`}
                data-status={j.status}
                data-job-done={j.done}
                data-job-total={j.total ?? ''}
                data-job-label={j.label}
              >
                {j.label} — {fmt(j.done)}
                {j.total !== null ? ` of ${fmt(j.total)}` : ''} {j.unit} ({j.status})
                {j.error ? `: ${j.error}` : ''}{' '}
                <button type="button" data-testid={`job-resume-${j.id}`} onClick={() => void resume(j.id)}>
                  Resume
                </button>{' '}
                <button
                  type="button"
                  data-testid={`job-discard-${j.id}`}
                  onClick={() => void askDiscard(j.id)}
                >
                  Discard
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}

/** Asked before downloaded records are thrown away: they were paid for and cannot be had back for free. */
function DiscardQuestionBox() {
  const q = useJobsStore((s) => s.discardQuestion);
  const { keepDownloads, confirmDiscard, dismissQuestion } = useJobsStore.getState();
  if (!q) return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby="job-discard-question"
      data-testid="job-discard-question"
      data-job-id={q.jobId}
      style={{ border: '1px solid #c0392b', borderRadius: 6, padding: 8, margin: '4px 0' }}
    >
      <p id="job-discard-question" style={{ margin: '0 0 8px' }}>
        Discard {fmt(q.records)} downloaded records? They cost downloads and cannot be recovered.
      </p>
      <div style={{ display: 'flex', gap: 8 }}>
        <button
          type="button"
          data-testid="job-discard-keep"
          onClick={() => void keepDownloads()}
          title="Keep them; the job stays paused and can be resumed later"
        >
          Keep
        </button>
        <button type="button" data-testid="job-discard-yes" onClick={() => void confirmDiscard()}>
          Discard
        </button>
        {q.running && (
          <button
            type="button"
            data-testid="job-discard-back"
            onClick={() => void dismissQuestion()}
            style={{ marginLeft: 'auto' }}
          >
            Go on fetching
          </button>
        )}
      </div>
    </div>
  );
}
