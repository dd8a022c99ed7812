import { useEffect } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { showDataset } from '../library/library-store';
import { describeSeconds, startJobEvents, useJobsStore, type RunningJob } from './jobs-store';

const fmt = (n: number) => n.toLocaleString('en-US');

function JobRow({ job }: { job: RunningJob }) {
  const cancel = useJobsStore((s) => s.cancel);
  const pct = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : null;
  return (
    <li className="job" data-testid={`job-running-${job.id}`} data-job-done={job.done} data-job-total={job.total ?? ''} data-windows-done={job.windowsDone ?? ''} data-windows-known={job.windowsKnown ?? ''}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <strong>{job.label}</strong>
        <button type="button" data-testid={`job-cancel-${job.id}`} disabled={job.cancelling} onClick={() => void cancel(job.id)} style={{ marginLeft: 'auto' }}>
          {job.cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      <progress data-testid={`job-progress-${job.id}`} max={job.total ?? undefined} value={job.total ? job.done : undefined} style={{ width: '100%' }} aria-label={`Progress of ${job.label}`} />
      <small data-testid={`job-detail-${job.id}`}>
        {fmt(job.done)} {job.total !== null ? `of ${fmt(job.total)} ` : ''}
        {job.unit}
        {pct !== null ? ` (${pct}%)` : ''}
        {job.windowsKnown ? ` · windows ${fmt(job.windowsDone ?? 0)}/${fmt(job.windowsKnown)}` : ''}
        {job.recordsStored !== null && job.unit !== 'records' ? ` · ${fmt(job.recordsStored)} records stored` : ''}
        {job.etaSeconds !== null ? ` · about ${describeSeconds(job.etaSeconds)} left` : ''}
        {job.waitingSeconds ? ` · waiting ${describeSeconds(job.waitingSeconds)} for the rate limit` : ''}
      </small>
    </li>
  );
}

/** The jobs tray: running fetches with progress and cancel, finished ones, and jobs left over from before a restart. */
export function JobsPanel() {
  const { running, resumable, finished, error, resume, discard, dismissFinished } = useJobsStore();
  useEffect(() => startJobEvents(), []);
  const active = Object.values(running);
  if (!active.length && !resumable.length && !finished.length && !error) return null;
  return (
    <aside className="jobs-panel" data-testid="jobs-panel" aria-label="Fetch jobs" style={{ border: '1px solid #8884', borderRadius: 6, padding: 8, margin: '8px 0' }}>
      <strong>Fetch jobs</strong>
      {error && <ErrorMessage error={error} testId="jobs-error" />}
      {active.length > 0 && (
        <ul data-testid="jobs-running" style={{ listStyle: 'none', padding: 0 }}>
          {active.map((j) => (
            <JobRow key={j.id} job={j} />
          ))}
        </ul>
      )}
      {finished.length > 0 && (
        <ul data-testid="jobs-finished" style={{ listStyle: 'none', padding: 0 }}>
          {finished.map((f) => (
            <li key={f.jobId} data-testid={`job-finished-${f.jobId}`} data-outcome={f.outcome}>
              {f.label}: {f.outcome === 'succeeded' ? 'done' : f.outcome} — {f.message}{' '}
              {f.datasetId && (
                <button type="button" data-testid={`job-open-${f.jobId}`} onClick={() => showDataset(f.datasetId!)}>
                  Open in Library
                </button>
              )}
              <button type="button" data-testid={`job-dismiss-${f.jobId}`} onClick={() => dismissFinished(f.jobId)} aria-label="Dismiss">
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {resumable.length > 0 && (
        <>
          <p style={{ margin: '4px 0' }}>Unfinished jobs (stopped by a restart or an error) keep what they fetched:</p>
          <ul data-testid="jobs-resumable" style={{ listStyle: 'none', padding: 0 }}>
            {resumable.map((j) => (
              <li key={j.id} data-testid={`job-resumable-${j.id}`} data-status={j.status} data-job-done={j.done} data-job-total={j.total ?? ''} data-job-label={j.label}>
                {j.label} — {fmt(j.done)}
                {j.total !== null ? ` of ${fmt(j.total)}` : ''} {j.unit} ({j.status}){j.error ? `: ${j.error}` : ''}{' '}
                <button type="button" data-testid={`job-resume-${j.id}`} onClick={() => void resume(j.id)}>
                  Resume
                </button>{' '}
                <button type="button" data-testid={`job-discard-${j.id}`} onClick={() => void discard(j.id)}>
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
