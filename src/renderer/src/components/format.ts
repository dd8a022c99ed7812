/** "3 h ago", "2 days ago": how old a saved copy is, in the unit a person would use. */
export function describeAge(seconds: number): string {
  if (seconds < 60) return 'just now';
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(seconds / 3600);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(seconds / 86_400)} days ago`;
}

/**
 * "Nov 27, 2026, 3:44 PM": when something was saved or taken, the one way every page writes a moment
 * (the analyst's locale, the date spelled, minutes without seconds). Text that is not a date is shown
 * as it is; null is "—".
 */
export function formatMoment(at: string | number | null): string {
  if (at === null) return '—';
  const t = typeof at === 'number' ? at : Date.parse(at);
  return Number.isNaN(t)
    ? String(at)
    : new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "2 min 10 s", "45 s". */
export function describeSeconds(s: number): string {
  if (s < 60) return `${Math.max(0, Math.round(s))} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
