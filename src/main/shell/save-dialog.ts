import { dialog, type BrowserWindow, type FileFilter, type SaveDialogOptions } from 'electron';
import type { ChooseSavePath } from '../handlers';

const FILTERS: Record<'xlsx' | 'csv' | 'parquet', FileFilter> = {
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] },
  csv: { name: 'CSV (comma-separated, UTF-8)', extensions: ['csv'] },
  parquet: { name: 'Parquet', extensions: ['parquet'] },
};

/**
 * The native save dialog, attached to the main window so it is modal to it. The dialog's own
 * "replace?" prompt is not relied on: the export still refuses to replace a file unless told to.
 */
export function createSaveDialog(window: () => BrowserWindow | null): ChooseSavePath {
  return async ({ defaultPath, format }) => {
    const options: SaveDialogOptions = {
      title: 'Export',
      defaultPath,
      filters: [FILTERS[format]],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const parent = window();
    const result = parent
      ? await dialog.showSaveDialog(parent, options)
      : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  };
}
