import { useEffect, useRef } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { NO_LIMIT } from '@shared/spec/usage';
import { ErrorMessage } from '../../components/error-message';
import { SavedCopyOffer } from '../../components/saved-copy-offer';
import { TryAgainButton } from '../../components/try-again-button';
import { useEnterSubmits } from '../../components/use-enter-submits';
import { useMsUntil } from '../../components/use-now';
import { estimateAgainAt, offersEstimateAgain, useFetchAllHsCodes, useJobsStore } from './jobs-store';

const fmt = (n: number) => n.toLocaleString('en-US');
/** What the account has left of a limit; null: the limit has no ceiling ("— no limit", never "unlimited left"). */
const left = (n: number | null, what = 'left') => (n === null ? NO_LIMIT : `${fmt(n)} ${what}`);

/**
 * The confirm step of "Fetch all": what it will cost against what the account has left, before
 * anything is spent. A modal: Escape or Cancel closes it and focus goes back to the button that
 * opened it; Enter in the name field (or any control of the form) starts the job.
 */
export function FetchAllDialog() {
  const dialog = useJobsStore((s) => s.dialog);
  const { confirm, dismissDialog, setName, estimate, openSaved } = useJobsStore.getState();
  const e = dialog?.estimate ?? null;
  const hsCodes = useFetchAllHsCodes();
  const ready = dialog?.state === 'ready' && e !== null && hsCodes?.state !== 'exceeds';
  const again = useJobsStore((s) => offersEstimateAgain(s.dialog));
  const againLeft = useMsUntil(useJobsStore((s) => estimateAgainAt(s.dialog)));
  const againButton = useRef<HTMLButtonElement>(null);
  // The check's failure arrives after the dialog opened (or a limit's wait ends): Enter then checks again.
  useEffect(() => {
    if (again && againLeft === 0) againButton.current?.focus();
  }, [again, againLeft]);
  const enter = useEnterSubmits();
  return (
    <Modal.Root opened={dialog !== null} onClose={dismissDialog} size="lg">
      <Modal.Overlay />
      <Modal.Content
        data-testid="fetch-all-dialog"
        data-state={dialog?.state}
        aria-labelledby="fetch-all-title"
      >
        <Modal.Header>
          <Modal.Title id="fetch-all-title" fw={600}>
            {again
              ? 'The cost could not be checked'
              : dialog?.kind === 'firms'
                ? 'Fetch all pages'
                : 'Fetch all records'}
          </Modal.Title>
          <Modal.CloseButton aria-label="Close" />
        </Modal.Header>
        <Modal.Body>
          {dialog && (
            <form
              {...enter}
              onSubmit={(ev) => {
                ev.preventDefault();
                if (again) void estimate();
                else if (ready) void confirm();
              }}
            >
              <Stack gap="md">
                {dialog.state === 'estimating' && (
                  <Group gap="sm" data-testid="fetch-all-estimating">
                    <Loader size="xs" />
                    <Text>
                      {dialog.knownTotal !== null
                        ? 'Working out the cost from the total the search reported (no request)…'
                        : `Asking the service how big this is (one request of ${dialog.kind === 'firms' ? 'one page' : 'up to 10 records'})…`}
                    </Text>
                  </Group>
                )}
                <SavedCopyOffer
                  testId="fetch-all-saved"
                  offer={dialog.saved}
                  cost={null}
                  onOpen={() => void openSaved()}
                  onDismiss={dismissDialog}
                  onFetchAgain={() => void estimate()}
                />
                {dialog.error && (
                  <ErrorMessage error={dialog.error} testId="fetch-all-error" waitLeftMs={againLeft} />
                )}
                {hsCodes && (
                  // Said before anything is sent: the service refuses a request past the allowance whole.
                  <Alert
                    color={hsCodes.state === 'exceeds' ? 'red' : 'blue'}
                    role={hsCodes.state === 'exceeds' ? 'alert' : 'status'}
                    data-testid="fetch-all-hs-codes"
                    data-state={hsCodes.state}
                  >
                    {hsCodes.state === 'exceeds'
                      ? `Cannot fetch: ${hsCodes.message}. Nothing was sent.`
                      : hsCodes.message}
                  </Alert>
                )}
                {e && (
                  <Table
                    withRowBorders={false}
                    verticalSpacing={4}
                    data-testid="fetch-all-estimate"
                    data-total={e.total ?? ''}
                    data-downloads={e.estimatedDownloads ?? ''}
                    data-requests={e.estimatedRequests ?? ''}
                    data-probed={e.probed}
                  >
                    <Table.Tbody>
                      <Table.Tr>
                        <Table.Th w={170}>To fetch</Table.Th>
                        <Table.Td data-testid="fetch-all-total">
                          {e.total === null ? 'unknown' : `${fmt(e.total)} ${e.unit}`}
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Th>Estimated requests</Table.Th>
                        <Table.Td data-testid="fetch-all-requests">
                          {e.estimatedRequests === null ? 'unknown' : `about ${fmt(e.estimatedRequests)}`}
                          {e.optimumRequests !== null && e.unit === 'records'
                            ? ` (at least ${fmt(e.optimumRequests)})`
                            : ''}{' '}
                          — {left(e.remainingDailyRequests, 'left today')}
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Th>Estimated downloads</Table.Th>
                        <Table.Td data-testid="fetch-all-downloads">
                          {e.estimatedDownloads === null
                            ? 'one page of firms per request'
                            : `about ${fmt(e.estimatedDownloads)}`}{' '}
                          — {left(e.remainingDownloads)}
                          {e.account ? ` (account ${e.account})` : ''}
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Th>This preview</Table.Th>
                        <Table.Td data-testid="fetch-all-preview-cost">
                          {e.probed
                            ? `cost one request (${e.kind === 'firms' ? 'one page of firms' : 'up to 10 records'})`
                            : 'cost nothing: the total is the one the search reported'}
                        </Table.Td>
                      </Table.Tr>
                    </Table.Tbody>
                  </Table>
                )}
                {e && !e.enough && (
                  <Alert color="orange" role="alert" data-testid="fetch-all-short">
                    Not enough quota: {e.problems.join('; ')}. The job fetches what is left, then pauses with
                    everything kept; resume it later.
                  </Alert>
                )}
                {e && (
                  <TextInput
                    label="Dataset name (optional)"
                    description="How the result is listed in the Library."
                    value={dialog.name}
                    maxLength={200}
                    data-testid="fetch-all-name"
                    data-autofocus
                    onChange={(ev) => setName(ev.currentTarget.value)}
                  />
                )}
                <Group justify="flex-end" gap="sm">
                  <Button variant="default" data-testid="fetch-all-cancel" onClick={dismissDialog}>
                    Cancel
                  </Button>
                  {again ? (
                    <TryAgainButton msLeft={againLeft} testId="fetch-all-again" ref={againButton} />
                  ) : (
                    <Button
                      type="submit"
                      data-testid="fetch-all-confirm"
                      disabled={!ready && dialog.state !== 'starting'}
                      loading={dialog.state === 'starting'}
                    >
                      Start fetching
                    </Button>
                  )}
                </Group>
              </Stack>
            </form>
          )}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
