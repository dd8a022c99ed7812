export const PAGES = [
  { id: 'search', label: 'Search', shortcut: '1' },
  { id: 'firms', label: 'Firms', shortcut: '2' },
  { id: 'library', label: 'Library', shortcut: '3' },
  { id: 'usage', label: 'Usage', shortcut: '4' },
  { id: 'settings', label: 'Settings', shortcut: ',' },
] as const;
export type PageId = (typeof PAGES)[number]['id'];

export function isPageId(v: unknown): v is PageId {
  return typeof v === 'string' && PAGES.some((p) => p.id === v);
}
