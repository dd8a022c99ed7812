import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DATASET_KINDS } from '@shared/fields';
import { importLocaleSchema } from '@shared/library/import-contract';
import { writeFileAtomic } from '../fs';
import type { RememberedMapping } from '../library';

/** Mappings the analyst confirmed, by the shape of the file's columns: `<dataDir>/import-mappings.json`. */
export const IMPORT_MAPPINGS_FILE = 'import-mappings.json';
/** The most shapes kept; the least recently confirmed goes first. */
const MAX_SHAPES = 200;

const fileSchema = z.object({
  version: z.literal(1),
  shapes: z.record(
    z.string().max(64),
    z.object({
      kind: z.enum(DATASET_KINDS),
      mapping: z.array(z.string().max(200).nullable()).max(16_384),
      leftOut: z.array(z.number().int().min(0)).max(16_384).optional(),
      locale: importLocaleSchema,
    }),
  ),
});

export interface ImportMappings {
  recall(shapeKey: string): RememberedMapping | null;
  remember(shapeKey: string, mapping: RememberedMapping): Promise<void>;
}

/**
 * Loads the remembered mappings once (a damaged file counts as none: they are a convenience, never
 * data) and writes them back atomically whenever the analyst confirms one.
 */
export async function loadImportMappings(dataDir: string): Promise<ImportMappings> {
  const path = join(dataDir, IMPORT_MAPPINGS_FILE);
  const shapes = new Map<string, RememberedMapping>();
  try {
    const parsed = fileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    if (parsed.success) for (const [k, v] of Object.entries(parsed.data.shapes)) shapes.set(k, v);
  } catch {
    // No file yet, or not readable: nothing remembered.
  }
  return {
    recall: (key) => shapes.get(key) ?? null,
    async remember(key, mapping) {
      shapes.delete(key);
      shapes.set(key, mapping);
      while (shapes.size > MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
      await writeFileAtomic(
        path,
        JSON.stringify({ version: 1, shapes: Object.fromEntries(shapes) }, null, 1),
      );
    },
  };
}
