import { chmod, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChosenFile } from '@shared/files/file-handle';
import { CALL_CHANNELS, FILE_DROP_CHANNEL, IPC_PREFIX } from '@shared/ipc/channels';
import type { BridgeResult } from '@shared/ipc/errors';
import type { ImportResultView } from '@shared/library/library-contract';
import { FILE_HANDLE_PATTERN } from '@shared/files/file-handle';
import { createDispatcher, createHandlers, type HandlersHandle } from '../../src/main/handlers';
import { nullLogger } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { registerFileDrop, type InvokeEventLike, type IpcMainLike } from '../../src/main/shell/ipc-handle';
import { isTrustedFrame, type FrameLike } from '../../src/main/shell/trusted-sender';

/**
 * A file dropped on the Electron window, from main's side: the shell's one message outside the bridge,
 * answered for the main window's own page only, over the real handlers (a real data dir and library),
 * so the handle it issues is the one the Library's import flow then previews and imports. Electron
 * itself is the only thing replaced (ipcMain and the invoke event are fakes).
 */
type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

const appUrl = 'app://portolan/index.html';
const mainFrame: FrameLike = { url: appUrl, parent: null };
const sender = { on: () => undefined };

let dir: string;
let handlers: HandlersHandle;
const registered = new Map<string, Listener>();
let unregister: () => void;
let adopted: unknown[] = [];

const ipc: IpcMainLike = {
  handle: (channel, listener) => void registered.set(channel, listener),
  removeHandler: (channel) => void registered.delete(channel),
};

const drop = (path: unknown, frame: FrameLike | null = mainFrame) =>
  registered.get(FILE_DROP_CHANNEL)!({ senderFrame: frame, sender }, path) as Promise<
    BridgeResult<ChosenFile>
  >;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portolan-drop-'));
  handlers = createHandlers({
    dataDir: join(dir, 'data'),
    resourcesDir: join(dir, 'resources'),
    logger: nullLogger,
    events: { emit: () => undefined },
    secrets: createMemorySecretStore(),
    appInfo: { version: '0.0.0-test', host: 'electron' },
  });
  const isTrustedSender = (e: InvokeEventLike) =>
    isTrustedFrame(e.senderFrame, mainFrame, {
      kind: 'app',
      rootDir: '/opt/portolan/resources/app.asar/out/renderer',
    });
  unregister = registerFileDrop(ipc, {
    isTrustedSender,
    adopt: (path) => {
      adopted.push(path);
      return handlers.droppedFiles.adoptImport(path);
    },
  });
});

afterAll(async () => {
  await handlers?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('a file dropped on the window (main)', () => {
  it('listens on its own message, outside the bridge calls, and can stop', () => {
    expect([...registered.keys()]).toEqual([FILE_DROP_CHANNEL]);
    expect(FILE_DROP_CHANNEL.startsWith(IPC_PREFIX)).toBe(false);
    expect((CALL_CHANNELS as readonly string[]).includes(FILE_DROP_CHANNEL.slice(IPC_PREFIX.length))).toBe(
      false,
    );
    unregister();
    expect(registered.size).toBe(0);
    unregister = registerFileDrop(ipc, {
      isTrustedSender: (e) => e.senderFrame === mainFrame,
      adopt: (path) => {
        adopted.push(path);
        return handlers.droppedFiles.adoptImport(path);
      },
    });
  });

  it('answers only the main window’s own page: a sub-frame, another page or no frame are refused unread', async () => {
    const csv = join(dir, 'arrivals.csv');
    await writeFile(csv, 'importerName,quantity\nAcme,3\n');
    adopted = [];
    for (const frame of [
      { url: appUrl, parent: mainFrame },
      { url: 'https://evil.example/', parent: null },
      null,
    ]) {
      expect(await drop(csv, frame)).toMatchObject({ ok: false, error: { kind: 'Forbidden' } });
    }
    expect(adopted).toEqual([]);
  });

  it('issues an import handle for a readable data file, which the import flow previews and imports', async () => {
    const csv = join(dir, 'arrivals.csv');
    await writeFile(csv, 'importerName,importerCountry,quantity\nAcme Co,DE,3\nBeta Ltd,FR,5\n');
    const r = await drop(csv);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.handle).toMatch(FILE_HANDLE_PATTERN);
    expect(r.value).toMatchObject({ name: 'arrivals.csv', location: dir, size: expect.any(Number) });
    expect(JSON.stringify(r.value)).not.toContain(csv);

    // The handle is what the Import button's flow takes: preview, then import, through the dispatcher.
    const dispatch = createDispatcher<null>({ handlers, logger: nullLogger, isTrustedSender: () => true });
    const preview = await dispatch('library.previewImport', { file: r.value.handle }, null);
    expect(preview).toMatchObject({ ok: true, value: { fileName: 'arrivals.csv' } });
    const imported = await dispatch('library.import', { file: r.value.handle }, null);
    expect(imported).toMatchObject({ ok: true, value: { rows: 2 } });
    // Used up: one drop is one import.
    expect(await dispatch('library.import', { file: r.value.handle }, null)).toMatchObject({
      ok: false,
      error: { kind: 'NotFound' },
    });
    // Not an export target: an export can never write over a dropped file.
    if (!imported.ok) throw new Error(imported.error.message);
    const again = await drop(csv);
    if (!again.ok) throw new Error(again.error.message);
    const exported = await dispatch(
      'export.start',
      {
        source: { datasetId: (imported.value as ImportResultView).dataset.id },
        format: 'csv',
        target: again.value.handle,
      },
      null,
    );
    expect(exported).toMatchObject({ ok: false, error: { kind: 'NotFound' } });
  });

  it('refuses what is not a readable data file, in the analyst’s words', async () => {
    await mkdir(join(dir, 'folder.csv'), { recursive: true });
    await writeFile(join(dir, 'notes.docx'), 'hello');
    // An Excel 97–2003 workbook begins with the compound file's signature.
    await writeFile(join(dir, 'old.xls'), Buffer.from('d0cf11e0a1b11ae1000000000000000000', 'hex'));
    await writeFile(
      join(dir, 'xml2003.xls'),
      '<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">',
    );
    const cases: [unknown, RegExp][] = [
      ['', /not a file from a folder on this computer/],
      [42, /not a file from a folder on this computer/],
      ['relative/arrivals.csv', /not a file from a folder on this computer/],
      [join(dir, 'gone.csv'), /gone\.csv could not be found/],
      [join(dir, 'folder.csv'), /folder\.csv is a folder, not a file/],
      [join(dir, 'notes.docx'), /notes\.docx cannot be imported: \.docx files are not supported/],
      [
        join(dir, 'old.xls'),
        /old\.xls cannot be imported: old Excel \.xls workbooks \(Excel 97–2003\) are not supported/,
      ],
      [
        join(dir, 'xml2003.xls'),
        /xml2003\.xls cannot be imported: this \.xls file is an Excel 2003 XML spreadsheet under an Excel name/,
      ],
    ];
    for (const [path, message] of cases) {
      const r = await drop(path);
      expect(r, String(path)).toMatchObject({ ok: false, error: { kind: 'InvalidInput' } });
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
  });

  it.skipIf(process.getuid?.() === 0)('refuses a file this user may not read', async () => {
    const locked = join(dir, 'locked.csv');
    await writeFile(locked, 'a,b\n1,2\n');
    await chmod(locked, 0o000);
    const r = await drop(locked);
    expect(r).toMatchObject({ ok: false, error: { kind: 'InvalidInput' } });
    if (!r.ok) expect(r.error.message).toMatch(/locked\.csv cannot be read/);
  });
});
