import { z } from 'zod';
import { FILTER_FIELDS, checkFilter, describeFieldIssues, type ShipmentFilter } from '@shared/spec';
import type { Preset, PresetsImportResult } from '@shared/presets/presets-contract';
import { cleanPresetName, fitPresetName } from '@shared/presets/preset-name';

export const PRESETS_FORMAT = 'portolan-presets';
export const PRESETS_VERSION = 1;

const isoTime = z.string().min(1).max(64);

/** presets.json around its presets; each preset is then read on its own (see parsePresetsFile). */
const presetsFileSchema = z.object({
  format: z.literal(PRESETS_FORMAT),
  version: z.literal(PRESETS_VERSION),
  presets: z.array(z.unknown()),
  last: z.unknown().optional(),
});

/**
 * One preset as stored. Only the name and the filter carry the user's work; an id or a time that is
 * missing or malformed (a hand-edited file) is replaced rather than costing the preset. `filter` is
 * checked separately with the spec's filter schema so that a problem reads the same as in the form.
 */
const storedPresetSchema = z.object({
  id: z.string().min(1).max(200).optional().catch(undefined),
  name: z.string(),
  filter: z.unknown(),
  createdAt: isoTime.optional().catch(undefined),
  updatedAt: isoTime.optional().catch(undefined),
});

export interface PresetsFile {
  format: typeof PRESETS_FORMAT;
  version: typeof PRESETS_VERSION;
  presets: Preset[];
  last: ShipmentFilter | null;
}

export const emptyPresetsFile = (): PresetsFile => ({
  format: PRESETS_FORMAT,
  version: PRESETS_VERSION,
  presets: [],
  last: null,
});

/**
 * Keeps only the spec's filter fields, then validates them. Dropping unknown keys first means a
 * file carrying extra data (a stray `apiSecret`, a newer app's field) can never smuggle it through.
 */
export function cleanFilter(
  raw: unknown,
): { ok: true; filter: ShipmentFilter } | { ok: false; reason: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, reason: 'the filter must be an object' };
  }
  const src = raw as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of FILTER_FIELDS) {
    if (src[field] !== undefined) kept[field] = src[field];
  }
  const checked = checkFilter(kept);
  return checked.ok
    ? { ok: true, filter: checked.value }
    : { ok: false, reason: describeFieldIssues(checked.issues, kept) };
}

/**
 * A name not yet taken (case-insensitively), within the length limit: `base + suffix`, then
 * `base + suffix (2)`, `(3)`… The base is what gets shortened, so a stored name can never exceed
 * the limit that the next start checks.
 */
export function uniquePresetName(taken: Iterable<string>, base: string, suffix = ''): string {
  const lower = new Set([...taken].map((n) => n.toLowerCase()));
  for (let n = 1; ; n++) {
    const candidate = fitPresetName(base, n === 1 ? suffix : `${suffix} (${n})`);
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

/** presets.json could not be read at all; `count` is how many presets it seemed to hold, if known. */
export class UnreadablePresetsFile extends Error {
  readonly count: number | null;
  constructor(message: string, count: number | null) {
    super(message);
    this.name = 'UnreadablePresetsFile';
    this.count = count;
  }
}

export interface ParsedPresetsFile {
  file: PresetsFile;
  /** Presets of the file that could not be read and were left out. */
  unreadable: number;
}

/**
 * Reads presets.json text. A broken preset is left out and counted, so one bad entry never costs the
 * others; throws UnreadablePresetsFile only when the file as a whole is not a presets file.
 */
export function parsePresetsFile(text: string, fill: { newId: () => string; at: string }): ParsedPresetsFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UnreadablePresetsFile('not valid JSON', null);
  }
  const env = presetsFileSchema.safeParse(json);
  if (!env.success) {
    const list =
      json !== null && typeof json === 'object' ? (json as { presets?: unknown }).presets : undefined;
    const count = Array.isArray(list) && list.length > 0 ? list.length : null;
    throw new UnreadablePresetsFile('not a presets file this app can read', count);
  }
  const presets: Preset[] = [];
  const ids = new Set<string>();
  let unreadable = 0;
  for (const item of env.data.presets) {
    const p = storedPresetSchema.safeParse(item);
    const name = p.success ? fitPresetName(cleanPresetName(p.data.name)) : '';
    const f = p.success ? cleanFilter(p.data.filter) : null;
    if (!p.success || !name || !f?.ok) {
      unreadable++;
      continue;
    }
    const id = p.data.id !== undefined && !ids.has(p.data.id) ? p.data.id : fill.newId();
    ids.add(id);
    const createdAt = p.data.createdAt ?? fill.at;
    presets.push({ id, name, filter: f.filter, createdAt, updatedAt: p.data.updatedAt ?? createdAt });
  }
  let last: ShipmentFilter | null = null;
  if (env.data.last !== undefined && env.data.last !== null) {
    const f = cleanFilter(env.data.last);
    // A bad "last filter" is not worth losing the presets over: start with an empty form instead.
    last = f.ok ? f.filter : null;
  }
  return { file: { format: PRESETS_FORMAT, version: PRESETS_VERSION, presets, last }, unreadable };
}

/** The text of an exported presets file: only names and filters, nothing about accounts or keys. */
export function exportPresetsText(presets: readonly Preset[]): string {
  return `${JSON.stringify(
    {
      format: PRESETS_FORMAT,
      version: PRESETS_VERSION,
      presets: presets.map((p) => ({
        name: p.name,
        filter: p.filter,
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
      })),
    },
    null,
    2,
  )}\n`;
}

export interface ImportedPreset {
  name: string;
  filter: ShipmentFilter;
}

/** What a JSON value is, in words for someone who opened the wrong file. */
function describeValue(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'nothing (null)';
  if (typeof v === 'string') return 'a piece of text';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return `the value ${String(v)}`;
  return 'something else';
}

const SHOULD_BE =
  'it should be a presets export from Portolan: one JSON object with "format", "version" and "presets"';

/** Checks the file around the presets; returns the presets list or throws with a sentence for the user. */
function checkEnvelope(json: unknown): unknown[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error(`the file holds ${describeValue(json)}; ${SHOULD_BE}`);
  }
  const env = json as Record<string, unknown>;
  if (env.format !== PRESETS_FORMAT)
    throw new Error(`not a Portolan presets file (format must be "${PRESETS_FORMAT}")`);
  const version = env.version;
  if (version === undefined || version === null) {
    throw new Error(`the presets version is missing (this app reads version ${PRESETS_VERSION})`);
  }
  // A quoted "1" or a negative number is a hand-edited or foreign file; guessing what it meant could
  // read a newer format with the wrong rules.
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    const shown = typeof version === 'string' ? `"${version.slice(0, 20)}"` : String(version).slice(0, 20);
    throw new Error(
      `the presets version must be a whole number such as ${PRESETS_VERSION}, but the file says ${shown}`,
    );
  }
  if (version > PRESETS_VERSION) {
    throw new Error(`the file is presets version ${version}; this app reads version ${PRESETS_VERSION}`);
  }
  if (!Array.isArray(env.presets)) throw new Error('presets must be a list');
  return env.presets;
}

/**
 * Parses an import file. Whole-file problems throw; a single bad preset is skipped with its reason so
 * that one broken entry does not cost the user the rest.
 */
export function parseImportText(text: string): {
  presets: ImportedPreset[];
  skipped: PresetsImportResult['skipped'];
} {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('the file is not valid JSON');
  }
  const items = checkEnvelope(json);
  const presets: ImportedPreset[] = [];
  const skipped: PresetsImportResult['skipped'] = [];
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      skipped.push({
        name: `#${i + 1}`,
        reason: `this entry is ${describeValue(item)}, not a preset (a preset has a name and a filter)`,
      });
      return;
    }
    const obj = item as Record<string, unknown>;
    const name = typeof obj.name === 'string' ? fitPresetName(cleanPresetName(obj.name)) : '';
    const label = name || `#${i + 1}`;
    if (!name) {
      skipped.push({ name: label, reason: 'a name is required' });
      return;
    }
    const f = cleanFilter(obj.filter);
    if (!f.ok) skipped.push({ name: label, reason: f.reason });
    else presets.push({ name, filter: f.filter });
  });
  return { presets, skipped };
}
