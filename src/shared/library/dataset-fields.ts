/**
 * The limits of a dataset's editable fields and of an import, in one place: the bridge schema
 * enforces them, the library applies them, and the renderer checks them before anything is sent so
 * the analyst reads a plain sentence next to the field instead of a schema error.
 */
export const MAX_NAME_LENGTH = 200;
export const MAX_TAG_LENGTH = 100;
export const MAX_TAGS = 50;
export const MAX_NOTES_LENGTH = 20_000;
/** The browser host receives an imported file in one upload, so its size is capped. */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

export const TAG_TOO_LONG = `A tag can be at most ${MAX_TAG_LENGTH} characters`;
export const TOO_MANY_TAGS = `At most ${MAX_TAGS} tags`;

export function importTooLargeMessage(fileName: string): string {
  return `Cannot import ${fileName}: the file is larger than 100 MB. The library was not changed.`;
}

/**
 * Trimmed, without empties, and without case duplicates ("steel", "Steel"), keeping the first
 * spelling: the tag filter ignores case, so case variants would only be clutter.
 */
export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const t = raw.trim();
    const key = t.toLowerCase();
    if (!t || seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

/** What is wrong with a tag list, in plain words; null when it can be saved as it is. */
export function checkTags(tags: readonly string[]): string | null {
  const long = tags.find((t) => t.length > MAX_TAG_LENGTH);
  if (long !== undefined) return `${TAG_TOO_LONG} (“${long.slice(0, 20)}…” has ${long.length})`;
  if (tags.length > MAX_TAGS) return `${TOO_MANY_TAGS} (there are ${tags.length})`;
  return null;
}

/** What is wrong with a new name, in plain words; null when it can be saved. */
export function checkName(name: string): string | null {
  const n = name.trim();
  if (!n) return 'A name is required';
  if (n.length > MAX_NAME_LENGTH) return `A name can be at most ${MAX_NAME_LENGTH} characters`;
  return null;
}

/** What is wrong with notes, in plain words; null when they can be saved. */
export function checkNotes(notes: string): string | null {
  return notes.length > MAX_NOTES_LENGTH
    ? `Notes can be at most ${MAX_NOTES_LENGTH.toLocaleString('en-US')} characters`
    : null;
}
