import { z } from 'zod';
import { shipmentFilterSchema, type ShipmentFilter } from '../spec/filter';
import { defineCall } from '../define-call';
import { cleanPresetName, PRESET_NAME_MAX } from './preset-name';

/** Saved filters (`presets.json` in main). */

/** A named shipment filter the user saved; the filter always passes the spec's filter schema. */
export interface Preset {
  id: string;
  name: string;
  filter: ShipmentFilter;
  createdAt: string;
  updatedAt: string;
}
export interface PresetsImportResult {
  presets: Preset[];
  imported: number;
  /** Presets of the file that were left out, and why (e.g. a filter the spec rejects). */
  skipped: { name: string; reason: string }[];
}
/** Presets of presets.json that could not be read on start: the file was kept so nothing is lost. */
export interface PresetsSetAside {
  /** How many presets were left out; null when the file as a whole could not be read. */
  count: number | null;
  /** Full path of the copy kept in the data folder. */
  file: string;
}
export interface PresetsList {
  presets: Preset[];
  /** Set once, on the first list after a start that had to set presets aside, so the panel says so once. */
  setAside: PresetsSetAside | null;
}

const id = z.string().min(1).max(200);
const presetName = z
  .string()
  .overwrite(cleanPresetName)
  .min(1, { error: 'a name is required' })
  .max(PRESET_NAME_MAX, { error: `at most ${PRESET_NAME_MAX} characters` });

export const presetsCalls = {
  'presets.list': defineCall<PresetsList>()(z.undefined()),
  'presets.save': defineCall<Preset[]>()(
    z.strictObject({ id: id.optional(), name: presetName, filter: shipmentFilterSchema }),
  ),
  'presets.rename': defineCall<Preset[]>()(z.strictObject({ id, name: presetName })),
  'presets.duplicate': defineCall<Preset[]>()(z.strictObject({ id })),
  'presets.delete': defineCall<Preset[]>()(z.strictObject({ id })),
  // One step up or down (keyboard, menu), or straight to a place in the list (drag and drop).
  'presets.reorder': defineCall<Preset[]>()(
    z.union([
      z.strictObject({ id, direction: z.enum(['up', 'down']) }),
      z.strictObject({ id, toIndex: z.number().int().min(0).max(1_000_000) }),
    ]),
  ),
  'presets.import': defineCall<PresetsImportResult>()(z.strictObject({ text: z.string().max(10_000_000) })),
  'presets.export': defineCall<string>()(z.strictObject({ ids: z.array(id).optional() }).optional()),
  'presets.getLast': defineCall<ShipmentFilter | null>()(z.undefined()),
  'presets.setLast': defineCall<void>()(z.strictObject({ filter: shipmentFilterSchema })),
};
