import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Alert, Box, Button, EmptyState, Group, Overlay, Paper, Stack, Text } from '@mantine/core';
import { IconFileImport, IconSearch, IconUpload } from '@tabler/icons-react';
import { ErrorMessage } from '../../components/error-message';
import { Page, PageHeader } from '../../components/page';
import { useDrillStore, useSessionStore } from '../../session';
import { useJobsStore } from '../jobs';
import { DatasetList } from './dataset-list';
import { OpenDataset } from './open-dataset';
import { ImportDialog } from './import-dialog';
import { useImportStore } from './import-store';
import { importPickerOf, useLibraryStore } from './library-store';

const ICON = { size: 16, stroke: 1.6 } as const;

/** Whether a drag carries files (not text or a link dragged inside the page). */
const carriesFiles = (e: DragEvent): boolean => Array.from(e.dataTransfer.types).includes('Files');

/** The page's one primary action: import a file, picked in the page (browser host) or in main's dialog (desktop). */
function ImportButton() {
  const uploading = useLibraryStore((s) => s.importStatus.state === 'running');
  const importing = useImportStore((s) => s.phase !== 'closed');
  const running = uploading || importing;
  const picker = useLibraryStore(importPickerOf);
  const { importFile, chooseAndImport } = useLibraryStore.getState();
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const openedHere = useRef(false);
  // The button is disabled while a file is read, mapped and imported, so the focus falls to the page
  // body and the import dialog has nothing to give it back to: when the import closes (Escape, Cancel
  // or done), the focus returns to this button if it started it.
  useEffect(() => {
    if (running || !openedHere.current) return;
    openedHere.current = false;
    button.current?.focus();
  }, [running]);
  // File → Import a File… (menu, Ctrl/⌘+O, palette): the button does what a click on it does, and the
  // focus comes back to it when the import is over. It waits while an import runs (the button is off).
  const requested = useLibraryStore((s) => s.importRequested);
  useEffect(() => {
    if (!requested || running || !useLibraryStore.getState().takeImportRequest()) return;
    button.current?.focus();
    button.current?.click();
  }, [requested, running]);
  return (
    <>
      <Button
        ref={button}
        leftSection={<IconFileImport {...ICON} />}
        loading={running}
        data-testid={picker === 'upload' ? 'library-import-button' : 'library-import-choose'}
        title="Excel, CSV or tab-separated text, JSON or Parquet, from Portolan or another tool (or drop the file on the page)"
        onClick={() => {
          openedHere.current = true;
          if (picker === 'upload') input.current?.click();
          else void chooseAndImport();
        }}
      >
        Import a file…
      </Button>
      {picker === 'upload' && (
        <input
          ref={input}
          type="file"
          hidden
          accept=".xlsx,.xlsm,.xls,.html,.htm,.csv,.tsv,.txt,.json,.jsonl,.ndjson,.parquet,application/json,text/csv,text/tab-separated-values"
          data-testid="library-import-input"
          disabled={running}
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importFile(f);
          }}
        />
      )}
    </>
  );
}

/** What the last import said, the library's own notices, and a list that could not be read. */
function LibraryNotices() {
  const importStatus = useLibraryStore((s) => s.importStatus);
  const recoveryNotice = useLibraryStore((s) => s.recoveryNotice);
  const error = useLibraryStore((s) => s.error);
  const { refresh, dismissRecoveryNotice } = useLibraryStore.getState();
  return (
    <>
      {importStatus.message && (
        <Text
          role="status"
          fz="sm"
          c={importStatus.state === 'done' ? 'green' : 'dimmed'}
          data-testid="library-import-status"
          data-state={importStatus.state}
        >
          {importStatus.message}
        </Text>
      )}
      {importStatus.warnings && importStatus.warnings.length > 0 && (
        <Alert color="orange" p="xs" data-testid="library-import-warnings">
          <Box component="ul" m={0} pl="md" fz="sm">
            {importStatus.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </Box>
        </Alert>
      )}
      {importStatus.error && <ErrorMessage error={importStatus.error} testId="library-import-error" />}
      {recoveryNotice && (
        <Alert color="orange" p="xs" role="status" data-testid="library-recovery-notice">
          <Group gap="sm" wrap="nowrap" justify="space-between">
            <Text fz="sm">{recoveryNotice}</Text>
            <Button size="xs" variant="default" onClick={dismissRecoveryNotice}>
              Dismiss
            </Button>
          </Group>
        </Alert>
      )}
      {error && (
        <Group gap="sm" align="center" wrap="nowrap">
          <Box flex={1} miw={0}>
            <ErrorMessage error={error} testId="library-error" />
          </Box>
          {error.kind === 'StorageLocked' && (
            <Button
              variant="default"
              data-testid="library-retry"
              onClick={() => {
                // The jobs tray read the same library: it asks again too.
                void refresh();
                void useJobsStore.getState().refresh();
              }}
              style={{ flexShrink: 0 }}
            >
              Retry
            </Button>
          )}
        </Group>
      )}
    </>
  );
}

/** Nothing open: what the detail side offers instead. */
function NothingOpen() {
  const any = useLibraryStore((s) => s.entries.length > 0);
  // A library that could not be read is not an empty one: the message above says why.
  const unread = useLibraryStore((s) => s.error !== null);
  if (unread) return <Paper flex={1} miw={0} data-testid="library-nothing-open" />;
  return (
    <Paper flex={1} miw={0} p="xl" data-testid="library-nothing-open">
      <EmptyState
        h="100%"
        icon={<IconUpload size={24} stroke={1.6} />}
        withIndicatorBackground
        title={any ? 'Open a dataset from the list' : 'Nothing saved yet'}
        description="Every search you run is kept here and works offline. Drop an Excel, CSV, tab-separated text, JSON or Parquet file on this page to import it."
      >
        {/* An empty library is filled by a search (Import a file… is the header's action). */}
        {!any && (
          <EmptyState.Actions>
            <Button
              variant="default"
              leftSection={<IconSearch size={16} stroke={1.6} />}
              data-testid="library-go-search"
              onClick={() => useSessionStore.getState().navigate('search')}
            >
              Search shipments
            </Button>
          </EmptyState.Actions>
        )}
      </EmptyState>
    </Paper>
  );
}

/**
 * The offline library, master–detail: the searchable list of datasets (one entry per query, its
 * fetches as versions) beside the open dataset, whose grid takes the rest of the window. A file
 * dropped anywhere on the page is imported.
 */
export function LibraryPage() {
  const status = useLibraryStore((s) => s.status);
  const open = useLibraryStore((s) => s.open);
  const { refresh, openDataset, dropFile } = useLibraryStore.getState();
  const pending = useDrillStore((s) => s.pending);
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them so the hint does not flicker.
  const depth = useRef(0);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (!pending) return;
    const drill = useDrillStore.getState().take();
    if (drill) openDataset(drill.datasetId, { filterModel: drill.filterModel, label: drill.label });
  }, [pending, openDataset]);

  return (
    <Box
      flex={1}
      mih={0}
      pos="relative"
      style={{ display: 'flex', flexDirection: 'column' }}
      onDragEnter={(e) => {
        if (!carriesFiles(e)) return;
        depth.current += 1;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (!carriesFiles(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setDragging(false);
        const f = e.dataTransfer.files[0];
        if (f) void dropFile(f);
      }}
    >
      <Page testId="library-page" layout="fill" data-status={status} aria-labelledby="library-title">
        <PageHeader title="Library" titleId="library-title" actions={<ImportButton />} />
        <LibraryNotices />
        <Group gap="md" align="stretch" wrap="nowrap" flex={1} mih={0}>
          <Stack gap="sm" w={300} mih={0} style={{ flexShrink: 0 }}>
            <DatasetList />
          </Stack>
          {open ? <OpenDataset /> : <NothingOpen />}
        </Group>
      </Page>
      <ImportDialog />
      {dragging && (
        <Overlay data-testid="library-drop-zone" backgroundOpacity={0.55} blur={1} zIndex={300} center>
          <Paper p="xl" withBorder shadow="md">
            <Group gap="sm">
              <IconUpload size={24} stroke={1.6} />
              <Text fw={600}>Drop the file to import it into the library</Text>
            </Group>
          </Paper>
        </Overlay>
      )}
    </Box>
  );
}
