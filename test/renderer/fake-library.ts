import type { CallChannel } from '@shared/ipc/channels';
import type { BridgeResult } from '@shared/ipc/errors';
import { libraryCalls, type DatasetView, type EquivalentView } from '@shared/library/library-contract';

/**
 * The library's bridge calls answered from memory, for renderer tests. Inputs are checked against
 * the channel's real schema, as main's dispatcher does, so a call the renderer should not have sent
 * fails the way it would in the app. Searches and tags match case-insensitively, like the library.
 */
export interface FakeLibrary {
  datasets: DatasetView[];
  calls: { channel: string; input: unknown }[];
  /** What `library.findEquivalent` answers; by default nothing. */
  equivalent: (input: unknown) => EquivalentView | null;
  /** Answers `library.import`; by default it never answers (an import in progress). */
  importAnswer: (input: { fileName: string; contentBase64: string }) => Promise<BridgeResult<unknown>>;
  invoke(channel: CallChannel, input: unknown): Promise<BridgeResult<unknown>>;
  callsTo(channel: string): unknown[];
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
    importAnswer: () => new Promise(() => undefined),
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
        return { ok: true, value: { ...d } };
      };
      const i = (input ?? {}) as Record<string, unknown>;
      switch (channel) {
        case 'library.list': {
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
          return { ok: true, value: undefined };
        }
        case 'library.getRows':
          return { ok: true, value: { rows: [], lastRow: 0 } };
        case 'library.findEquivalent':
          return { ok: true, value: fake.equivalent(input) };
        case 'library.import':
          return fake.importAnswer(input as { fileName: string; contentBase64: string });
        case 'jobs.list':
          return { ok: true, value: { running: [], resumable: [] } };
        default:
          return { ok: false, error: { kind: 'Internal', message: `unexpected ${channel}` } };
      }
    },
  };
  return fake;
}
