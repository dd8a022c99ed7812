import { z } from 'zod';
import { FILTER_FIELDS, checkFilter, describeIssues, type ShipmentFilter } from '@shared/spec';
import type { Preset, PresetsImportResult } from '@shared/ipc/contract';

export const PRESETS_FORMAT = 'portolan-presets';
export const PRESETS_VERSION = 1;

const isoTime = z.string().min(1).max(64);

/**
 * One preset as stored in presets.json. `filter` is checked separately with the spec's filter
 * schema so that a problem reads the same as in the form.
 */
const storedPresetSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(100),
  filter: z.record(z.string(), z.unknown()),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** presets.json: the export format plus the filter restored on start. */
export const presetsFileSchema = z.object({
  format: z.literal(PRESETS_FORMAT),
  version: z.literal(PRESETS_VERSION),
  presets: z.array(storedPresetSchema),
  last: z.record(z.string(), z.unknown()).nullable().optional(),
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
export function cleanFilter(raw: unknown): { ok: true; filter: ShipmentFilter } | { ok: false; reason: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, reason: 'the filter must be an object' };
  }
  const src = raw as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of FILTER_FIELDS) {
    if (src[field] !== undefined) kept[field] = src[field];
  }
  const checked = checkFilter(kept);
  return checked.ok ? { ok: true, filter: checked.value } : { ok: false, reason: describeIssues(checked.issues) };
}

/** Reads presets.json text; throws when it is not a valid presets file. */
export function parsePresetsFile(text: string): PresetsFile {
  const parsed = presetsFileSchema.parse(JSON.parse(text));
  const presets: Preset[] = [];
  for (const p of parsed.presets) {
    const f = cleanFilter(p.filter);
    if (!f.ok) throw new Error(`preset "${p.name}": ${f.reason}`);
    presets.push({ id: p.id, name: p.name, filter: f.filter, createdAt: p.createdAt, updatedAt: p.updatedAt });
  }
  let last: ShipmentFilter | null = null;
  if (parsed.last) {
    const f = cleanFilter(parsed.last);
    // A bad "last filter" is not worth losing the presets over: start with an empty form instead.
    last = f.ok ? f.filter : null;
  }
  return { format: PRESETS_FORMAT, version: PRESETS_VERSION, presets, last };
}

/** The text of an exported presets file: only names and filters, nothing about accounts or keys. */
export function exportPresetsText(presets: readonly Preset[]): string {
  return `${JSON.stringify(
    {
      format: PRESETS_FORMAT,
      version: PRESETS_VERSION,
      presets: presets.map((p) => ({ name: p.name, filter: p.filter, createdAt: p.createdAt, updatedAt: p.updatedAt })),
    },
    null,
    2,
  )}\n`;
}

const importEnvelopeSchema = z.object({
  format: z.literal(PRESETS_FORMAT, { error: `not a Portolan presets file (format must be "${PRESETS_FORMAT}")` }),
  version: z.number({ error: 'version is missing' }),
  presets: z.array(z.unknown(), { error: 'presets must be a list' }),
});

export interface ImportedPreset {
  name: string;
  filter: ShipmentFilter;
}

/**
 * Parses an import file. Whole-file problems throw; a single bad preset is skipped with its reason so
 * that one broken entry does not cost the user the rest.
 */
export function parseImportText(text: string): { presets: ImportedPreset[]; skipped: PresetsImportResult['skipped'] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('the file is not valid JSON');
  }
  const env = importEnvelopeSchema.safeParse(json);
  if (!env.success) throw new Error(env.error.issues[0]?.message ?? 'not a Portolan presets file');
  if (env.data.version > PRESETS_VERSION) {
    throw new Error(`the file is presets version ${env.data.version}; this app reads version ${PRESETS_VERSION}`);
  }
  const presets: ImportedPreset[] = [];
  const skipped: PresetsImportResult['skipped'] = [];
  env.data.presets.forEach((item, i) => {
    const obj = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
    const rawName = typeof obj.name === 'string' ? obj.name.trim().slice(0, 100) : '';
    const label = rawName || `#${i + 1}`;
    if (!rawName) {
      skipped.push({ name: label, reason: 'a name is required' });
      return;
    }
    const f = cleanFilter(obj.filter);
    if (!f.ok) skipped.push({ name: label, reason: f.reason });
    else presets.push({ name: rawName, filter: f.filter });
  });
  return { presets, skipped };
}
