import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute } from 'node:path';
import type { ChosenFile } from '@shared/files/file-handle';
import { AppError } from '@shared/ipc/errors';
import type { FileHandles } from '../file-handles';
import { importFormatOf, xlsContent } from '../library';

/** Files dropped on the Electron window, checked before the window may name them by handle. */
export interface DroppedFiles {
  /**
   * An import handle for the path of a dropped file, once it is an absolute path to a regular file
   * this user can read, of a kind the importer reads; an InvalidInput in the analyst's words otherwise.
   */
  adoptImport(path: unknown): Promise<ChosenFile>;
}

const refuse = (message: string) => new AppError('InvalidInput', message);

export function createDroppedFiles(handles: FileHandles): DroppedFiles {
  return {
    async adoptImport(path) {
      // No path: not a file from a folder (text, a link, an attachment still inside another program).
      if (typeof path !== 'string' || path === '' || !isAbsolute(path) || path.includes('\0')) {
        throw refuse(
          'What was dropped is not a file from a folder on this computer. Save it to a folder first, then drop it or choose it with Import a file….',
        );
      }
      const name = basename(path);
      const info = await stat(path).catch(() => null);
      if (!info) throw refuse(`${name} could not be found; it may have been moved or deleted.`);
      if (!info.isFile()) throw refuse(`${name} is a folder, not a file: drop one data file.`);
      const format = importFormatOf(path);
      if (!format.ok) throw refuse(`${name} cannot be imported: ${format.problem}.`);
      const readable = await access(path, constants.R_OK).then(
        () => true,
        () => false,
      );
      if (!readable) throw refuse(`${name} cannot be read: this user has no permission to open it.`);
      // An .xls name says little: an old workbook is refused here; text, a web page or an .xlsx is read.
      if (/\.xls$/i.test(path)) {
        const content = await xlsContent(path);
        if (content.kind === 'refused') throw refuse(`${name} cannot be imported: ${content.problem}.`);
      }
      // The analyst's own file, read where it is (not copied): the handle is used up by the import.
      const handle = handles.issue({ purpose: 'import-source', path, owned: false });
      return { handle, name, location: dirname(path), size: info.size };
    },
  };
}
