import { Alert, Button, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { RefreshPreview } from '@shared/watch/watch-contract';
import { ErrorMessage } from '../../components/error-message';
import { useEnterSubmits } from '../../components/use-enter-submits';
import { describeSeconds } from '../../components/format';
import { TryAgainButton } from '../../components/try-again-button';
import { useMsUntil, useNow } from '../../components/use-now';
import { checkAgainAt, offersCheckAgain, useWatchStore } from './watch-store';

const n = (v: number): string => v.toLocaleString('en-US');

/**
 * A refresh that waits for its service, in the words the jobs tray uses for a fetch job: since when,
 * ticking, and that it goes on by itself; Cancel (below) stops it with nothing stored.
 */
function WaitingForService() {
  const since = useWatchStore((s) => s.waitingSince);
  const now = useNow(since !== null);
  if (since === null) return null;
  return (
    <Alert color="orange" role="status" data-testid="watch-refresh-waiting">
      The service is not answering: waiting for it ({describeSeconds(Math.max(0, now - since) / 1000)} so
      far). The refresh goes on by itself when it answers. Cancel stops it, and nothing of it is stored.
    </Alert>
  );
}

/** The windows the check did not ask again: an earlier check of the same question had their answers. */
function reusedText(p: Pick<RefreshPreview, 'checkRequests' | 'checkReused'>): string | null {
  const { checkRequests: all, checkReused: reused } = p;
  if (reused <= 0) return null;
  if (reused >= all)
    return all === 1
      ? 'Its date window was answered by an earlier check, so it was not asked again.'
      : `All ${n(all)} date windows were answered by an earlier check, so none was asked again.`;
  const asked = all - reused;
  return `${n(reused)} of the ${n(all)} date windows ${reused === 1 ? 'was' : 'were'} answered by an earlier check, so only the other ${asked === 1 ? 'one was' : `${n(asked)} were`} asked.`;
}

/**
 * The cost of a refresh (or of a new watch's first snapshot) before anything more is spent: the windows
 * it fetches, what the service holds there and the library holds already, and the downloads it takes.
 * Enter refreshes, Escape closes.
 */
export function RefreshDialog() {
  const { closeDialog, confirmRefresh, checkAgain } = useWatchStore.getState();
  const open = useWatchStore((s) => s.dialogOpen);
  const checking = useWatchStore((s) => s.checking);
  const preview = useWatchStore((s) => s.preview);
  const hsCodes = useWatchStore((s) => s.hsCodes);
  const blocked = hsCodes?.state === 'exceeds';
  const forNew = useWatchStore((s) => s.dialogForNew);
  const first = preview?.first ?? forNew;
  const refusal = first ? 'Cannot watch this query' : 'Cannot refresh';
  const refreshing = useWatchStore((s) => s.refreshing);
  const cancelling = useWatchStore((s) => s.cancelling);
  const { cancelRefresh } = useWatchStore.getState();
  const error = useWatchStore((s) => s.dialogError);
  const again = useWatchStore(offersCheckAgain);
  const againLeft = useMsUntil(useWatchStore(checkAgainAt));
  const reused = preview ? reusedText(preview) : null;
  const confirm = useRef<HTMLButtonElement>(null);
  const enter = useEnterSubmits();
  // The cost (or the check's failure) arrives after the dialog opened: Enter then takes the snapshot
  // it priced, or checks again.
  useEffect(() => {
    if (preview || (again && againLeft === 0)) confirm.current?.focus();
  }, [preview, again, againLeft]);
  const title = blocked
    ? refusal
    : preview?.first
      ? `Watch “${preview.name}”`
      : preview
        ? `Refresh “${preview.name}”`
        : error && !checking
          ? 'The cost could not be checked'
          : 'Checking the cost…';
  return (
    <Modal
      opened={open}
      onClose={closeDialog}
      title={title}
      size="lg"
      data-testid="watch-refresh-dialog"
      closeOnEscape={!refreshing}
    >
      <form
        {...enter}
        onSubmit={(e) => {
          e.preventDefault();
          void (again ? checkAgain() : confirmRefresh());
        }}
      >
        <Stack gap="md">
          {checking && (
            <Group gap="sm">
              <Loader size="sm" />
              <Text>
                Asking the service how many records are new (one search of 10 records per date window)…
              </Text>
            </Group>
          )}
          {refreshing && <WaitingForService />}
          {error && <ErrorMessage error={error} testId="watch-refresh-error" waitLeftMs={againLeft} />}
          {hsCodes && (
            // Said before anything is sent: the service refuses a request past the allowance whole.
            <Alert
              color={blocked ? 'red' : 'blue'}
              role={blocked ? 'alert' : 'status'}
              data-testid="watch-refresh-hs-codes"
              data-state={hsCodes.state}
            >
              {/* The title says the refusal (`Cannot refresh`): the line says why. */}
              {blocked ? `${hsCodes.message}. Nothing was sent.` : hsCodes.message}
            </Alert>
          )}
          {preview && (
            <>
              <Text data-testid="watch-refresh-summary">
                {preview.first
                  ? 'The first snapshot fetches every record of the query.'
                  : `Fetches the records from ${preview.overlapDays} days before the newest one held (${preview.since ?? '—'}) on, and any dates the last snapshot could not fetch whole.`}
              </Text>
              <Table withTableBorder striped fz="sm" data-testid="watch-refresh-windows">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Arrival dates</Table.Th>
                    <Table.Th ta="right">Records now</Table.Th>
                    <Table.Th ta="right">Already held</Table.Th>
                    <Table.Th ta="right">Downloads</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.windows.map((w) => (
                    <Table.Tr key={w.label}>
                      <Table.Td>{w.label}</Table.Td>
                      <Table.Td ta="right">{n(w.total)}</Table.Td>
                      <Table.Td ta="right">{n(w.held)}</Table.Td>
                      <Table.Td ta="right">{n(w.downloads)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Alert color="blue" data-testid="watch-refresh-cost">
                {preview.exact ? 'This refresh costs ' : 'This refresh costs at least '}
                <b>
                  {n(preview.downloads)} download{preview.downloads === 1 ? '' : 's'}
                </b>{' '}
                in {n(preview.requests)} request{preview.requests === 1 ? '' : 's'}. Checking it cost{' '}
                {n(preview.checkDownloads)} download{preview.checkDownloads === 1 ? '' : 's'}, whose records
                are kept.
                {reused && <span data-testid="watch-refresh-reused"> {reused}</span>}
              </Alert>
            </>
          )}
          <Group justify="flex-end">
            {/* While it runs, Cancel stops the refresh itself (a wait for the service included). */}
            <Button
              variant="default"
              onClick={refreshing ? () => void cancelRefresh() : closeDialog}
              loading={cancelling}
              data-testid="watch-refresh-cancel"
            >
              Cancel
            </Button>
            {again ? (
              <TryAgainButton msLeft={againLeft} testId="watch-refresh-again" ref={confirm} />
            ) : (
              <Button
                type="submit"
                data-testid="watch-refresh-confirm"
                ref={confirm}
                disabled={!preview || blocked}
                loading={refreshing}
                data-autofocus
              >
                {first ? 'Take first snapshot' : 'Refresh'}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
