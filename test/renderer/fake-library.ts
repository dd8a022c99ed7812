import type { CallChannel } from '@shared/ipc/channels';
import type { BridgeError, BridgeResult } from '@shared/ipc/errors';
import type { ChosenFile } from '@shared/files/file-handle';
import type { ImportCheckView, ImportPreviewView } from '@shared/library/import-contract';
import {
  libraryCalls,
  type DatasetView,
  type EquivalentView,
  type LibraryChanged,
} from '@shared/library/library-contract';
import type { FakeBridgeOptions } from './fake-bridge';

/**
 * The library's bridge calls answered from memory, for renderer tests. Inputs are checked against
 * the channel's real schema, as main's dispatcher does, so a call the renderer should not have sent
 * fails the way it would in the app. Searches and tags match case-insensitively, like the library.
 */
export interface FakeLibrary {
  datasets: DatasetView[];
  calls: { channel: string; input: unknown }[];
  /** Where the changes main would announce (`library.changed`) go; by default nowhere. */
  announce: (change: LibraryChanged) => void;
  /** What `library.status` answers as `recovered`; by default nothing to say. */
  recovered: { keptAs: string; notice: string } | null;
  /** When set, `library.list` fails with this error (e.g. the library held by another program). */
  listError: BridgeError | null;
  /** What `library.findEquivalent` answers; by default nothing. */
  equivalent: (input: unknown) => EquivalentView | null;
  /** Answers `library.import` for the file behind its handle; by default it never answers (an import in progress). */
  importAnswer: (file: ReceivedFile) => Promise<BridgeResult<unknown>>;
  /** Files the page uploaded (the browser host's way in), each behind the handle it was answered. */
  uploads: ReceivedFile[];
  /**
   * What `library.previewImport` answers for the file and the choices sent; by default another tool's
   * CSV of two columns, the first read as the importer's name, the second kept as an extra column.
   */
  previewAnswer: (file: ReceivedFile, choices: Record<string, unknown> | undefined) => ImportPreviewView;
  /**
   * Answers `library.checkImport` (the whole-file check) for the file and the check's id; by default
   * it never answers (a check under way, its progress sent by the test as `library.importCheck`).
   */
  checkAnswer: (file: ReceivedFile, checkId: string) => Promise<BridgeResult<ImportCheckView>>;
  /** What `library.chooseImportFile` answers (the desktop's open dialog); by default a cancel. */
  dialogChoice: ReceivedFile | null;
  /** The browser host's upload, as the page's transport calls it. */
  upload(file: Blob, fileName: string): Promise<BridgeResult<ChosenFile>>;
  invoke(channel: CallChannel, input: unknown): Promise<BridgeResult<unknown>>;
  callsTo(channel: string): unknown[];
}

/** A file main holds for the page: its handle, its name and (uploads) the bytes it received. */
export interface ReceivedFile {
  handle: string;
  fileName: string;
  text: string;
}

interface BlobReader {
  result: unknown;
  error: Error | null;
  onload: () => void;
  onerror: () => void;
  readAsText(blob: Blob): void;
}

let handles = 0;
const nextHandle = (): string => `fh_${String(++handles).padStart(32, '0')}`;

/** A preview of another tool's file, as main answers `library.previewImport`. */
export function importPreview(overrides: Partial<ImportPreviewView> = {}): ImportPreviewView {
  return {
    fileName: 'desk.csv',
    format: 'csv',
    sheets: [{ name: 'desk.csv', rows: null, hidden: false }],
    sheet: 0,
    headerRow: 1,
    kind: 'shipments',
    columns: [
      { index: 0, header: 'Consignee', field: 'importerName', leftOut: false, samples: ['Acme', 'Beta'] },
      { index: 1, header: 'Remarks', field: null, leftOut: false, samples: ['urgent', ''] },
    ],
    locale: { decimal: '.', dates: 'dmy' },
    localeProof: { decimal: null, dates: null },
    dateOrderMatters: true,
    notices: [],
    remembered: false,
    fromPortolan: false,
    verbatim: false,
    issues: [],
    rowsChecked: 2,
    blankRows: 0,
    ...overrides,
  };
}

export function dataset(id: string, overrides: Partial<DatasetView> = {}): DatasetView {
  return {
    id,
    name: `Dataset ${id}`,
    kind: 'shipments',
    request: { exporter_countries: ['DE'], size: 100 },
    profileId: 'p1',
    profileName: 'Work',
    account: null,
    fetchedAt: new Date(Date.now() - 3_600_000).toISOString(),
    reportedTotal: 100,
    storedRows: 100,
    notes: '',
    tags: [],
    status: 'complete',
    windows: null,
    reported: null,
    source: 'fetch',
    ...overrides,
  };
}

/**
 * `importAnswer` for an import main stores at once: dataset `id`, named after the file, of `rows` rows
 * read as `format`; `more` is what the answer says besides (a restored filter, warnings).
 */
export function importedAs(
  id: string,
  format: string,
  rows: number,
  more: Record<string, unknown> = {},
): FakeLibrary['importAnswer'] {
  return (file) =>
    Promise.resolve({
      ok: true,
      value: { dataset: dataset(id, { name: file.fileName }), format, rows, filterRestored: false, ...more },
    });
}

const notFound = {
  ok: false as const,
  error: {
    kind: 'NotFound' as const,
    message: 'That dataset is not in the library (it may have been deleted).',
  },
};

export function fakeLibrary(initial: DatasetView[]): FakeLibrary {
  const fake: FakeLibrary = {
    datasets: initial.map((d) => ({ ...d })),
    calls: [],
    equivalent: () => null,
    recovered: null,
    listError: null,
    announce: () => undefined,
    importAnswer: () => new Promise(() => undefined),
    checkAnswer: () => new Promise(() => undefined),
    previewAnswer: (file, choices) =>
      importPreview({
        fileName: file.fileName,
        ...(Array.isArray(choices?.mapping)
          ? {
              columns: importPreview().columns.map((c, i) => ({
                ...c,
                field: (choices.mapping as (string | null)[])[i] ?? null,
                leftOut: ((choices.leftOut ?? []) as number[]).includes(i),
              })),
            }
          : {}),
        ...(choices?.locale ? { locale: choices.locale as ImportPreviewView['locale'] } : {}),
      }),
    uploads: [],
    dialogChoice: null,
    async upload(file, fileName) {
      // jsdom's Blob has no text(); its FileReader (a DOM global, untyped in this config) reads it.
      const Reader = (globalThis as unknown as { FileReader: new () => BlobReader }).FileReader;
      const text = await new Promise<string>((resolve, reject) => {
        const reader = new Reader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
        reader.readAsText(file);
      });
      const received = { handle: nextHandle(), fileName, text };
      fake.uploads.push(received);
      return {
        ok: true,
        value: { handle: received.handle, name: fileName, location: 'uploaded', size: file.size },
      };
    },
    callsTo: (channel) => fake.calls.filter((c) => c.channel === channel).map((c) => c.input),
    async invoke(channel, input) {
      fake.calls.push({ channel, input });
      const schema = (
        libraryCalls as Record<
          string,
          { input: { safeParse(i: unknown): { success: boolean; error?: { message: string } } } }
        >
      )[channel];
      if (schema) {
        const parsed = schema.input.safeParse(input);
        if (!parsed.success)
          return {
            ok: false,
            error: {
              kind: 'InvalidInput',
              message: `The input is not valid: ${parsed.error?.message ?? ''}`,
            },
          };
      }
      const find = (id: string) => fake.datasets.find((d) => d.id === id);
      const update = (id: string, patch: Partial<DatasetView>): BridgeResult<unknown> => {
        const d = find(id);
        if (!d) return notFound;
        Object.assign(d, patch);
        fake.announce({ change: 'updated', datasetId: id });
        return { ok: true, value: { ...d } };
      };
      const i = (input ?? {}) as Record<string, unknown>;
      switch (channel) {
        case 'library.status':
          return { ok: true, value: { recovered: fake.recovered } };
        case 'library.list': {
          if (fake.listError) return { ok: false, error: fake.listError };
          const search = typeof i.search === 'string' ? i.search.toLowerCase() : '';
          const tag = typeof i.tag === 'string' ? i.tag.toLowerCase() : '';
          const value = fake.datasets
            .filter(
              (d) => !search || [d.name, d.notes, ...d.tags].some((t) => t.toLowerCase().includes(search)),
            )
            .filter((d) => !tag || d.tags.some((t) => t.toLowerCase() === tag))
            .filter((d) => !i.kind || d.kind === i.kind)
            .map((d) => ({ ...d }));
          return { ok: true, value };
        }
        case 'library.get': {
          const d = find(String(i.id));
          return d ? { ok: true, value: { ...d } } : notFound;
        }
        case 'library.rename':
          return update(String(i.id), { name: String(i.name).trim() });
        case 'library.setTags':
          return update(String(i.id), { tags: i.tags as string[] });
        case 'library.setNotes':
          return update(String(i.id), { notes: String(i.notes) });
        case 'library.delete': {
          if (!find(String(i.id))) return notFound;
          fake.datasets = fake.datasets.filter((d) => d.id !== i.id);
          fake.announce({ change: 'removed', datasetId: String(i.id) });
          return { ok: true, value: undefined };
        }
        case 'library.versions': {
          const d = find(String(i.id));
          if (!d) return notFound;
          const series = d.series ?? d.id;
          const value = fake.datasets
            .filter((x) => (x.series ?? x.id) === series)
            .sort((a, b) => b.fetchedAt.localeCompare(a.fetchedAt))
            .map((x) => ({ ...x }));
          return { ok: true, value };
        }
        case 'library.getRows':
          return { ok: true, value: { rows: [], lastRow: 0 } };
        case 'library.findEquivalent':
          return { ok: true, value: fake.equivalent(input) };
        case 'library.chooseImportFile': {
          const chosen = fake.dialogChoice;
          return {
            ok: true,
            value: chosen && { handle: chosen.handle, name: chosen.fileName, location: '/home/analyst' },
          };
        }
        case 'library.previewImport': {
          const file = [...fake.uploads, ...(fake.dialogChoice ? [fake.dialogChoice] : [])].find(
            (f) => f.handle === i.file,
          );
          if (!file) return { ok: false, error: { kind: 'NotFound', message: 'Choose the file again.' } };
          return {
            ok: true,
            value: fake.previewAnswer(file, i.choices as Record<string, unknown> | undefined),
          };
        }
        case 'library.checkImport': {
          const file = [...fake.uploads, ...(fake.dialogChoice ? [fake.dialogChoice] : [])].find(
            (f) => f.handle === i.file,
          );
          if (!file) return { ok: false, error: { kind: 'NotFound', message: 'Choose the file again.' } };
          return fake.checkAnswer(file, String(i.checkId));
        }
        case 'library.cancelImportCheck':
          return { ok: true, value: undefined };
        case 'library.import': {
          const file = [...fake.uploads, ...(fake.dialogChoice ? [fake.dialogChoice] : [])].find(
            (f) => f.handle === i.file,
          );
          if (!file) return { ok: false, error: { kind: 'NotFound', message: 'Choose the file again.' } };
          return fake.importAnswer(file);
        }
        case 'jobs.list':
          return { ok: true, value: { running: [], resumable: [] } };
        default:
          return { ok: false, error: { kind: 'Internal', message: `unexpected ${channel}` } };
      }
    },
  };
  return fake;
}

/**
 * The bridge as the browser host gives it, over the fake library `current()` names (a test may make a
 * new one for each test): calls it answers, files picked in the page uploaded to it.
 */
export function browserHostOver(
  current: () => FakeLibrary,
): Required<Pick<FakeBridgeOptions, 'fallback' | 'fileTransfer'>> {
  return {
    fallback: (channel, input) => current().invoke(channel, input),
    fileTransfer: {
      upload: (file, fileName) => current().upload(file, fileName),
      downloadUrl: (handle) => `/files/export/${handle}`,
    },
  };
}
