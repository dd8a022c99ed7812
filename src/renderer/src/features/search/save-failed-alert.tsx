import { COUNT, formatNumber } from '@shared/fields';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useSearchStore } from './search-store';

const fmt = (n: number): string => formatNumber(n, COUNT);

/**
 * The shown answer is not in the Library because its save failed: what happened, that nothing is
 * spent again, and what to do. "Save again" stores the copy main kept; while saving keeps failing,
 * the records can be shown from memory (and exported) instead, and the notice shrinks to one line
 * so the grid keeps the window.
 */
export function SaveFailedAlert() {
  const failure = useSearchStore((s) => s.saveFailure);
  const { saveAgain, showKeptRecords } = useSearchStore.getState();
  if (!failure) return null;
  const records = `${fmt(failure.records)} record${failure.records === 1 ? '' : 's'}`;
  // The page's one filled button while this shows: the run button turns plain meanwhile.
  const saveButton = (
    <Button
      size="compact-sm"
      variant="filled"
      data-testid="search-save-again"
      loading={failure.busy === 'saving'}
      disabled={failure.busy === 'loading'}
      onClick={() => void saveAgain()}
      style={{ flexShrink: 0 }}
    >
      Save again
    </Button>
  );
  const error = failure.error && (
    <Text fz="sm" c="red" role="alert" data-testid="search-save-failed-error">
      {failure.error}
    </Text>
  );
  return (
    <Alert
      color="orange"
      role="status"
      py="xs"
      icon={<IconDeviceFloppy size={16} />}
      title={failure.shown ? undefined : "This search's answer is not saved in the Library"}
      data-testid="search-save-failed"
      data-dataset-id={failure.datasetId}
      data-busy={failure.busy ?? ''}
      data-shown={failure.shown ? 'yes' : 'no'}
      style={{ flexShrink: 0 }}
    >
      {failure.shown ? (
        <Stack gap={4}>
          <Group gap="sm" wrap="nowrap" align="center">
            <Text fz="sm" flex={1} miw={0} data-testid="search-save-failed-text">
              Not saved in the Library: these {records} are shown from memory until Portolan closes.{' '}
              {failure.reason} Export them to keep a copy, or choose Save again once the cause is fixed.
            </Text>
            {saveButton}
          </Group>
          {error}
        </Stack>
      ) : (
        <Stack gap={6}>
          <Text fz="sm" data-testid="search-save-failed-text">
            Its {records} were downloaded and counted against the account, but Portolan could not save them.{' '}
            {failure.reason} Portolan keeps them in memory until it closes, so saving them again downloads
            nothing and costs nothing. Fix the cause, then choose Save again, or show them here without
            saving.
          </Text>
          {error}
          <Group gap="xs" wrap="wrap">
            {saveButton}
            <Button
              size="compact-sm"
              variant="default"
              data-testid="search-show-kept"
              loading={failure.busy === 'loading'}
              disabled={failure.busy === 'saving'}
              onClick={() => void showKeptRecords()}
            >
              Show the records without saving
            </Button>
          </Group>
        </Stack>
      )}
    </Alert>
  );
}
