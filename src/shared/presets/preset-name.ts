/**
 * Preset names, shared by the channel schema, the main-process store and the presets panel so the
 * three agree on what a name may hold and how long it may be. Kept free of imports so the renderer
 * can use it without pulling in the contract.
 */

/** Longest preset name, in UTF-16 code units: what zod's `max` and an input's `maxLength` both count. */
export const PRESET_NAME_MAX = 100;

// Control characters make a name print oddly or not at all (NUL ends it in some tools), and bidi
// controls can make a name read differently from what it holds ("gpj.exe" shown as "exe.jpg").
// Joiners (U+200C/U+200D) stay: some scripts and emoji need them.
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The name as it is stored: unsafe characters removed, line breaks and tabs as one space, trimmed. */
export function cleanPresetName(raw: string): string {
  return raw.replace(LINE_BREAKS, ' ').replace(UNSAFE, '').trim();
}

/** The first `max` code units of `text`, never ending in half of a surrogate pair (half an emoji). */
function cutTo(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * `base` + `suffix` within the name limit: the base is shortened, never the suffix, so "… copy" and
 * "… (2)" still say what they are.
 */
export function fitPresetName(base: string, suffix = ''): string {
  return `${cutTo(base, PRESET_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
}

/** What is wrong with a name the user typed, in words for the form; null when it can be saved. */
export function presetNameProblem(raw: string): string | null {
  const name = cleanPresetName(raw);
  if (!name) return 'Name the preset first';
  if (name.length > PRESET_NAME_MAX)
    return `The name is ${name.length} characters long; keep it to ${PRESET_NAME_MAX} at most`;
  return null;
}
