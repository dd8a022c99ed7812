import { useEffect, useRef } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Progress,
  Radio,
  Stack,
  Text,
} from '@mantine/core';
import type { ExportFormat, ExportSourceRef, ExportView } from '@shared/export/export-contract';
import { ErrorMessage, SystemDetail } from '../../components/error-message';
import { useEnterSubmits } from '../../components/use-enter-submits';
import {
  describeDatasetChoice,
  describeProgress,
  describeRowsToExport,
  describeViewChoice,
  fileNameOf,
  FORMAT_NAMES,
  progressPercent,
  type ExportCounts,
} from './export-flow';
import { useExportDialog } from './use-export-dialog';

export interface ExportButtonProps {
  source: ExportSourceRef;
  /** Offered as the file name (the dataset's name). */
  suggestedName?: string;
  /** Read when Export is pressed, for grids whose view changes without re-rendering this button. */
  resolveView?: () => ExportView | undefined;
  /** The view's and the dataset's row counts, so the dialog can say how many rows the export writes. */
  counts?: ExportCounts;
}

const FORMATS: readonly ExportFormat[] = ['xlsx', 'csv', 'parquet'];

/**
 * "Export…": a small dialog to pick the format, the summary sheets and the file, then a progress bar
 * with cancel, then where the file went. An existing file is replaced only after the user says so.
 * A Mantine modal like every other dialog: focus moves in and stays there, Escape closes it (not while
 * the file is being written: Cancel export says what happens to it) and focus goes back to Export….
 * Enter on any of its choices (a format, the summary sheets) exports, as the Export button does.
 */
export function ExportButton({ source, suggestedName, resolveView, counts }: ExportButtonProps) {
  const {
    open,
    state,
    format,
    summaries,
    target,
    busy,
    scope,
    nothingToExport,
    downloads,
    show,
    close,
    setFormat,
    setSummaries,
    choose,
    start,
    keepExisting,
    tryAgain,
    tryAnotherFolder,
    cancel,
  } = useExportDialog({ source, suggestedName, resolveView, counts });
  const running = state.step === 'running';
  const percent = running ? progressPercent(state.progress) : null;
  const enter = useEnterSubmits();
  const failed = state.step === 'done' && state.outcome === 'failed';
  // The running step's Cancel export is gone: the focus goes to Try again, so Enter runs it.
  const tryAgainRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (failed) tryAgainRef.current?.focus();
  }, [failed]);

  return (
    <>
      <Button variant="default" data-testid="export-open" onClick={show}>
        Export…
      </Button>
      <Modal.Root opened={open} onClose={close} closeOnEscape={!running} closeOnClickOutside={!running}>
        <Modal.Overlay />
        <Modal.Content data-testid="export-dialog" data-step={state.step} aria-labelledby="export-title">
          <Modal.Header>
            <Modal.Title id="export-title" fw={600}>
              Export
            </Modal.Title>
            {!running && <Modal.CloseButton aria-label="Close" />}
          </Modal.Header>
          <Modal.Body>
            <form
              {...enter}
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                if (busy) return;
                if (state.step === 'form' && !nothingToExport) void start(false);
                else if (failed) void tryAgain();
              }}
            >
              <Stack gap="md">
                {state.step === 'form' && (
                  <>
                    {scope.view && (
                      <Radio.Group
                        label="What to export"
                        value={scope.scope}
                        onChange={(v) => scope.setScope(v === 'view' ? 'view' : 'dataset')}
                        data-testid="export-scope"
                        data-scope={scope.scope}
                      >
                        <Stack gap={6} mt={6}>
                          <Radio
                            value="view"
                            disabled={busy}
                            data-testid="export-scope-view"
                            label={describeViewChoice(scope.view, counts)}
                          />
                          <Radio
                            value="dataset"
                            disabled={busy}
                            data-testid="export-scope-dataset"
                            label={describeDatasetChoice(counts)}
                          />
                        </Stack>
                      </Radio.Group>
                    )}
                    {counts &&
                      (nothingToExport ? (
                        <Alert
                          color="yellow"
                          role="alert"
                          data-testid="export-row-count"
                          data-rows={scope.rows ?? ''}
                        >
                          {describeRowsToExport(scope.scope, counts)}
                        </Alert>
                      ) : (
                        <Text fz="sm" data-testid="export-row-count" data-rows={scope.rows ?? ''}>
                          {describeRowsToExport(scope.scope, counts)}
                        </Text>
                      ))}
                    <Radio.Group
                      label="Format"
                      value={format}
                      onChange={(v) => {
                        const f = FORMATS.find((x) => x === v);
                        if (f) setFormat(f);
                      }}
                    >
                      <Group gap="lg" mt={6}>
                        {FORMATS.map((f) => (
                          <Radio
                            key={f}
                            value={f}
                            disabled={busy}
                            data-testid={`export-format-${f}`}
                            label={FORMAT_NAMES[f]}
                          />
                        ))}
                      </Group>
                    </Radio.Group>
                    <Checkbox
                      data-testid="export-summaries"
                      checked={summaries}
                      disabled={format !== 'xlsx' || busy}
                      onChange={(e) => setSummaries(e.currentTarget.checked)}
                      label="Include summary sheets (top importers and exporters, by HS code, by month)"
                    />
                    <Group gap="sm" wrap="nowrap">
                      <Button
                        variant="default"
                        data-testid="export-choose"
                        disabled={busy}
                        onClick={() => void choose()}
                      >
                        Choose file…
                      </Button>
                      <Text fz="sm" c={target ? undefined : 'dimmed'} data-testid="export-path" miw={0}>
                        {target ? (downloads ? target.name : target.location) : 'No file chosen'}
                      </Text>
                    </Group>
                    {state.error && <ErrorMessage error={state.error} testId="export-error" />}
                  </>
                )}

                {state.step === 'confirmReplace' && (
                  <Alert color="yellow" role="alert" data-testid="export-replace-question">
                    {state.message}
                  </Alert>
                )}

                {running && (
                  <Stack
                    gap="xs"
                    data-testid="export-progress"
                    data-done={state.progress?.done ?? 0}
                    data-total={state.progress?.total ?? ''}
                  >
                    <Progress
                      value={percent ?? 100}
                      animated={percent === null}
                      striped={percent === null}
                      aria-label="Export progress"
                    />
                    <Text fz="sm" data-testid="export-progress-text">
                      {state.cancelling ? 'Cancelling…' : describeProgress(state.progress)}
                    </Text>
                    <Text fz="sm">
                      Writing{' '}
                      <span data-testid="export-running-path">
                        {downloads ? fileNameOf(state.path) : state.path}
                      </span>
                    </Text>
                  </Stack>
                )}

                {state.step === 'done' && (
                  <Stack gap="xs" data-testid="export-done" data-outcome={state.outcome}>
                    <Text role={state.outcome === 'failed' ? 'alert' : 'status'} data-testid="export-message">
                      {state.message}
                    </Text>
                    {state.detail && <SystemDetail text={state.detail} />}
                    {state.outcome === 'succeeded' && !downloads && (
                      <Text fz="sm">
                        Saved to <Code data-testid="export-done-path">{state.path}</Code>
                      </Text>
                    )}
                    {state.outcome === 'succeeded' && state.downloadUrl && (
                      <Anchor href={state.downloadUrl} download data-testid="export-download">
                        Download {fileNameOf(state.path)} again
                      </Anchor>
                    )}
                  </Stack>
                )}

                <Group gap="sm" justify="flex-end">
                  {state.step === 'form' && (
                    <>
                      <Button variant="default" data-testid="export-close" onClick={close}>
                        Close
                      </Button>
                      <Button
                        type="submit"
                        data-testid="export-start"
                        // The dialog opens on its primary action, so Enter exports (not the ✕, which closed it).
                        data-autofocus
                        disabled={busy || nothingToExport}
                      >
                        Export
                      </Button>
                    </>
                  )}
                  {state.step === 'confirmReplace' && (
                    <>
                      <Button variant="default" data-testid="export-replace-no" onClick={keepExisting}>
                        Keep it
                      </Button>
                      <Button
                        color="red"
                        data-testid="export-replace-yes"
                        disabled={busy}
                        onClick={() => void start(true)}
                      >
                        Replace
                      </Button>
                    </>
                  )}
                  {running && (
                    <Button
                      variant="default"
                      data-testid="export-cancel"
                      disabled={state.cancelling}
                      onClick={() => void cancel()}
                    >
                      Cancel export
                    </Button>
                  )}
                  {state.step === 'done' && !failed && (
                    <Button data-testid="export-close" onClick={close}>
                      Close
                    </Button>
                  )}
                  {failed && (
                    <>
                      <Button variant="default" data-testid="export-close" onClick={close}>
                        Close
                      </Button>
                      {state.anotherFolder && !downloads && (
                        <Button
                          variant="default"
                          data-testid="export-another-folder"
                          disabled={busy}
                          onClick={() => void tryAnotherFolder()}
                        >
                          Choose another folder…
                        </Button>
                      )}
                      <Button
                        ref={tryAgainRef}
                        type="submit"
                        data-testid="export-try-again"
                        loading={busy}
                        title="Export again with the same settings, to the same file"
                      >
                        Try again
                      </Button>
                    </>
                  )}
                </Group>
              </Stack>
            </form>
          </Modal.Body>
        </Modal.Content>
      </Modal.Root>
    </>
  );
}
