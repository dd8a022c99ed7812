import { describe, expect, it } from 'vitest';
import { createOpenDialog, createSaveDialog, type DialogLike } from '../../src/main/shell/file-dialogs';

/** Electron's dialog, answered by the test: what it was asked, and the answer a user would give. */
function fakeDialog(answer: { canceled: boolean; filePath?: string; filePaths?: string[] }) {
  const asked: { parent: unknown; options: Record<string, unknown> }[] = [];
  const record = (a: unknown, b?: unknown) => {
    const withParent = b !== undefined;
    asked.push({
      parent: withParent ? a : null,
      options: (withParent ? b : a) as Record<string, unknown>,
    });
  };
  const dialog = {
    showSaveDialog: async (a: unknown, b?: unknown) => {
      record(a, b);
      return { canceled: answer.canceled, filePath: answer.filePath ?? '' };
    },
    showOpenDialog: async (a: unknown, b?: unknown) => {
      record(a, b);
      return { canceled: answer.canceled, filePaths: answer.filePaths ?? [] };
    },
  } as unknown as DialogLike;
  return { dialog, asked };
}

/** Stands for the main window: the dialogs only pass it on to Electron. */
const window = { id: 1 } as unknown as Parameters<typeof createSaveDialog>[1] extends () => infer W
  ? NonNullable<W>
  : never;

describe('native file dialogs (Electron, through injected fakes)', () => {
  it('the save dialog is modal to the window, offers the format only, and hands back the path', async () => {
    const { dialog, asked } = fakeDialog({ canceled: false, filePath: '/home/a/steel.xlsx' });
    const choose = createSaveDialog(dialog, () => window);
    expect(await choose({ defaultPath: '/home/a/Steel.xlsx', format: 'xlsx' })).toBe('/home/a/steel.xlsx');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.parent).toBe(window);
    expect(asked[0]!.options).toMatchObject({
      defaultPath: '/home/a/Steel.xlsx',
      filters: [{ name: 'Excel workbook', extensions: ['xlsx'] }],
    });
  });

  it('a cancelled save dialog is no choice, and without a window the dialog still opens', async () => {
    const { dialog, asked } = fakeDialog({ canceled: true });
    expect(await createSaveDialog(dialog, () => null)({ defaultPath: 'x.csv', format: 'csv' })).toBeNull();
    expect(asked[0]!.parent).toBeNull();
  });

  it('the open dialog picks one existing file and hands back its path; cancel is null', async () => {
    const picked = fakeDialog({ canceled: false, filePaths: ['/home/a/firms.csv'] });
    expect(await createOpenDialog(picked.dialog, () => window)({ purpose: 'import' })).toBe(
      '/home/a/firms.csv',
    );
    expect(picked.asked[0]!.parent).toBe(window);
    expect(picked.asked[0]!.options).toMatchObject({ properties: ['openFile'] });
    const cancelled = fakeDialog({ canceled: true, filePaths: [] });
    expect(await createOpenDialog(cancelled.dialog, () => window)({ purpose: 'import' })).toBeNull();
  });
});
