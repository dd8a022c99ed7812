/** "3 h ago", "2 days ago": how old a saved copy is, in the unit a person would use. */
export function describeAge(seconds: number): string {
  if (seconds < 60) return 'just now';
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(seconds / 3600);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(seconds / 86_400)} days ago`;
}
