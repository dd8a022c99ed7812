import { finishedDataset } from '@shared/jobs/jobs-contract';
import { Anchor, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { notify } from '../../components/notify';
import { showDataset } from '../../session';
import { useJobsStore, type FinishedJob } from './jobs-store';

const TONE = {
  succeeded: 'success',
  failed: 'error',
  paused: 'warning',
  interrupted: 'warning',
  cancelled: 'info',
} as const;
const TITLE: Record<FinishedJob['outcome'], (label: string) => string> = {
  succeeded: (l) => `${l}: done`,
  failed: (l) => `${l} failed`,
  paused: (l) => `${l} paused`,
  interrupted: (l) => `${l} stopped`,
  cancelled: (l) => `${l} cancelled`,
};

/** A finished job as a toast: it fades; the tray keeps the entry. */
function toast(f: FinishedJob): void {
  const id = `job-${f.jobId}`;
  const datasetId = finishedDataset(f);
  const { openTray } = useJobsStore.getState();
  notify({
    id,
    title: TITLE[f.outcome](f.label),
    tone: TONE[f.outcome],
    message: (
      <>
        <span data-testid={`toast-job-${f.jobId}`}>{f.message}</span>
        <Group gap="md" mt={4}>
          {datasetId ? (
            <Anchor
              component="button"
              type="button"
              fz="sm"
              data-testid={`toast-open-${f.jobId}`}
              onClick={() => {
                notifications.hide(id);
                showDataset(datasetId);
              }}
            >
              Open in Library
            </Anchor>
          ) : null}
          <Anchor
            component="button"
            type="button"
            fz="sm"
            onClick={() => {
              notifications.hide(id);
              openTray();
            }}
          >
            Show jobs
          </Anchor>
        </Group>
      </>
    ),
  });
}

/**
 * Toasts for jobs as they end, instead of notices piling up on the pages. Called by the app
 * (connectStores), never on import; returns the disconnect.
 */
export function connectJobToasts(): () => void {
  const seen = new Set(useJobsStore.getState().finished.map((f) => f.jobId));
  return useJobsStore.subscribe((s, prev) => {
    if (s.finished === prev.finished) return;
    for (const f of s.finished) {
      if (seen.has(f.jobId)) continue;
      seen.add(f.jobId);
      // Nobody needs to be told of a job they are watching end in the open tray, except its failure.
      if (s.trayOpen && f.outcome !== 'failed') continue;
      toast(f);
    }
  });
}
