import { randomUUID } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Preset, PresetsImportResult, PresetsSetAside } from '@shared/presets/presets-contract';
import { cleanPresetName } from '@shared/presets/preset-name';
import { AppError } from '@shared/ipc/errors';
import { writeFileAtomic } from '../fs';
import type { ShipmentFilter } from '@shared/spec';
import {
  cleanFilter,
  emptyPresetsFile,
  exportPresetsText,
  parseImportText,
  parsePresetsFile,
  uniquePresetName,
  UnreadablePresetsFile,
  type PresetsFile,
} from './presets-format';

export const PRESETS_FILE_NAME = 'presets.json';

export interface PresetsStore {
  list(): Promise<Preset[]>;
  /** Creates a preset, or replaces the filter (and name) of an existing one when `id` is given. */
  save(input: { id?: string | undefined; name: string; filter: ShipmentFilter }): Promise<Preset[]>;
  rename(id: string, name: string): Promise<Preset[]>;
  duplicate(id: string): Promise<Preset[]>;
  remove(id: string): Promise<Preset[]>;
  /** One place up or down, or to `toIndex` (clamped to the list), the others keeping their order. */
  move(id: string, to: 'up' | 'down' | { toIndex: number }): Promise<Preset[]>;
  importText(text: string): Promise<PresetsImportResult>;
  exportText(ids?: readonly string[]): Promise<string>;
  getLast(): Promise<ShipmentFilter | null>;
  setLast(filter: ShipmentFilter): Promise<void>;
  /**
   * What had to be set aside when presets.json was read, or null; cleared once taken, so the user is
   * told once rather than on every list.
   */
  takeSetAside(): Promise<PresetsSetAside | null>;
  /** Where the last unreadable presets file (or the original of a partly readable one) was kept. */
  readonly corruptCopy: string | null;
}

export interface PresetsStoreOptions {
  dataDir: string;
  /** Injected so tests can order presets without sleeping. */
  now?: () => Date;
}

/**
 * presets.json in the data directory. Every change is written to a temporary file and renamed over
 * the old one, so a crash leaves either the old or the new file, never half of one. An unreadable file
 * is moved aside (kept for the user) and the store starts empty rather than refusing to work; a file
 * with some unreadable presets keeps the readable ones and a copy of the original is kept beside it.
 */
export function createPresetsStore(options: PresetsStoreOptions): PresetsStore {
  const file = join(options.dataDir, PRESETS_FILE_NAME);
  const now = options.now ?? (() => new Date());
  let state: PresetsFile | null = null;
  let corruptCopy: string | null = null;
  let setAside: PresetsSetAside | null = null;
  // Calls run one after another: two quick edits must not both start from the same old state.
  let queue: Promise<unknown> = Promise.resolve();

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  async function load(): Promise<PresetsFile> {
    if (state) return state;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return (state = emptyPresetsFile());
      throw e;
    }
    const aside = join(options.dataDir, `presets.corrupt-${now().toISOString().replace(/[:.]/g, '-')}.json`);
    let parsed: ReturnType<typeof parsePresetsFile>;
    try {
      parsed = parsePresetsFile(text, { newId: randomUUID, at: now().toISOString() });
    } catch (e) {
      if (!(e instanceof UnreadablePresetsFile)) throw e;
      await rename(file, aside);
      corruptCopy = aside;
      setAside = { count: e.count, file: aside };
      return (state = emptyPresetsFile());
    }
    if (parsed.unreadable > 0) {
      // The copy comes first: a crash before the rewrite leaves the original in place, to be read
      // (and copied) again on the next start, so no preset exists only in memory.
      await writeFileAtomic(aside, text);
      corruptCopy = aside;
      setAside = { count: parsed.unreadable, file: aside };
      // Rewritten now, not on the next edit: otherwise every start would find the same bad entries
      // and keep another copy of them.
      await persist(parsed.file);
    }
    return (state = parsed.file);
  }

  async function persist(next: PresetsFile): Promise<void> {
    await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
    state = next;
  }

  const find = (s: PresetsFile, id: string): number => {
    const i = s.presets.findIndex((p) => p.id === id);
    if (i < 0) throw new AppError('NotFound', 'That preset no longer exists.');
    return i;
  };

  const validFilter = (filter: unknown): ShipmentFilter => {
    const f = cleanFilter(filter);
    if (!f.ok) throw new AppError('InvalidInput', `The filter is not valid: ${f.reason}`);
    return f.filter;
  };

  /** Names stay unique so a list of presets reads unambiguously: "Steel (2)". */
  const uniqueName = (
    s: PresetsFile,
    wanted: string,
    opts: { exceptId?: string; suffix?: string } = {},
  ): string => {
    const base = cleanPresetName(wanted);
    if (!base) throw new AppError('InvalidInput', 'The preset needs a name.');
    const taken = s.presets.filter((p) => p.id !== opts.exceptId).map((p) => p.name);
    return uniquePresetName(taken, base, opts.suffix);
  };

  const update = (fn: (s: PresetsFile) => PresetsFile): Promise<Preset[]> =>
    serial(async () => {
      const next = fn(await load());
      await persist(next);
      return next.presets;
    });

  return {
    get corruptCopy() {
      return corruptCopy;
    },
    takeSetAside: () =>
      serial(async () => {
        await load();
        const taken = setAside;
        setAside = null;
        return taken;
      }),
    list: () => serial(async () => (await load()).presets),
    save: ({ id, name, filter }) =>
      update((s) => {
        const clean = validFilter(filter);
        const at = now().toISOString();
        if (id !== undefined) {
          const i = find(s, id);
          const old = s.presets[i] as Preset;
          const presets = [...s.presets];
          presets[i] = { ...old, name: uniqueName(s, name, { exceptId: id }), filter: clean, updatedAt: at };
          return { ...s, presets };
        }
        const preset: Preset = {
          id: randomUUID(),
          name: uniqueName(s, name),
          filter: clean,
          createdAt: at,
          updatedAt: at,
        };
        return { ...s, presets: [...s.presets, preset] };
      }),
    rename: (id, name) =>
      update((s) => {
        const i = find(s, id);
        const presets = [...s.presets];
        presets[i] = {
          ...(s.presets[i] as Preset),
          name: uniqueName(s, name, { exceptId: id }),
          updatedAt: now().toISOString(),
        };
        return { ...s, presets };
      }),
    duplicate: (id) =>
      update((s) => {
        const i = find(s, id);
        const src = s.presets[i] as Preset;
        const at = now().toISOString();
        const copy: Preset = {
          id: randomUUID(),
          name: uniqueName(s, src.name, { suffix: ' copy' }),
          filter: structuredClone(src.filter),
          createdAt: at,
          updatedAt: at,
        };
        const presets = [...s.presets];
        presets.splice(i + 1, 0, copy);
        return { ...s, presets };
      }),
    remove: (id) =>
      update((s) => {
        find(s, id);
        return { ...s, presets: s.presets.filter((p) => p.id !== id) };
      }),
    move: (id, to) =>
      update((s) => {
        const i = find(s, id);
        const j =
          to === 'up'
            ? i - 1
            : to === 'down'
              ? i + 1
              : Math.min(Math.max(to.toIndex, 0), s.presets.length - 1);
        if (j < 0 || j >= s.presets.length || j === i) return s;
        const presets = [...s.presets];
        const [moved] = presets.splice(i, 1);
        presets.splice(j, 0, moved as Preset);
        return { ...s, presets };
      }),
    importText: (text) =>
      serial(async () => {
        let parsed: ReturnType<typeof parseImportText>;
        try {
          parsed = parseImportText(text);
        } catch (e) {
          throw new AppError('InvalidInput', `Cannot import presets: ${(e as Error).message}`);
        }
        const s = await load();
        const at = now().toISOString();
        const next: PresetsFile = { ...s, presets: [...s.presets] };
        for (const p of parsed.presets) {
          next.presets.push({
            id: randomUUID(),
            name: uniqueName(next, p.name),
            filter: p.filter,
            createdAt: at,
            updatedAt: at,
          });
        }
        if (parsed.presets.length > 0) await persist(next);
        return { presets: next.presets, imported: parsed.presets.length, skipped: parsed.skipped };
      }),
    exportText: (ids) =>
      serial(async () => {
        const s = await load();
        const wanted = ids ? new Set(ids) : null;
        return exportPresetsText(wanted ? s.presets.filter((p) => wanted.has(p.id)) : s.presets);
      }),
    getLast: () => serial(async () => (await load()).last),
    setLast: (filter) =>
      serial(async () => {
        const s = await load();
        await persist({ ...s, last: validFilter(filter) });
      }),
  };
}
