import type { BrowserWindow, Dialog, FileFilter, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { ChooseOpenPath, ChooseSavePath } from '../handlers';

/** The part of Electron's `dialog` the file choices use; tests pass a fake. */
export type DialogLike = Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;

const SAVE_FILTERS: Record<'xlsx' | 'csv' | 'parquet', FileFilter> = {
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] },
  csv: { name: 'CSV (comma-separated, UTF-8)', extensions: ['csv'] },
  parquet: { name: 'Parquet', extensions: ['parquet'] },
};

/** What the importer reads; "All files" last so a file with an odd extension can still be tried. */
const IMPORT_FILTERS: FileFilter[] = [
  {
    name: 'Data files (Excel, CSV, tab-separated text, JSON, Parquet, web page tables)',
    extensions: [
      'xlsx',
      'xlsm',
      'xls',
      'csv',
      'tsv',
      'txt',
      'json',
      'jsonl',
      'ndjson',
      'parquet',
      'html',
      'htm',
    ],
  },
  { name: 'All files', extensions: ['*'] },
];

/**
 * The native save dialog, attached to the main window so it is modal to it. The path it returns stays
 * in main: the export service turns it into a handle for the window. The dialog's own "replace?"
 * prompt is not relied on: the export still refuses to replace a file unless told to.
 */
export function createSaveDialog(dialog: DialogLike, window: () => BrowserWindow | null): ChooseSavePath {
  return async ({ defaultPath, format }) => {
    const options: SaveDialogOptions = {
      title: 'Export',
      defaultPath,
      filters: [SAVE_FILTERS[format]],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const parent = window();
    const result = parent
      ? await dialog.showSaveDialog(parent, options)
      : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  };
}

/** The native open dialog for imports: one existing file, whose path stays in main behind a handle. */
export function createOpenDialog(dialog: DialogLike, window: () => BrowserWindow | null): ChooseOpenPath {
  return async () => {
    const options: OpenDialogOptions = {
      title: 'Import a file',
      filters: IMPORT_FILTERS,
      properties: ['openFile'],
    };
    const parent = window();
    const result = parent
      ? await dialog.showOpenDialog(parent, options)
      : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
}
