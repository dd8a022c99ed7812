/**
 * The app's pages in navigation order, shared by the renderer's navigation and the Electron menu so the
 * two cannot drift apart; Ctrl/Cmd+1 … go to them in this order.
 */
export const PAGES = [
  { id: 'search', label: 'Search', menuLabel: 'Shipment Search' },
  { id: 'firms', label: 'Firms', menuLabel: 'Firms' },
  { id: 'library', label: 'Library', menuLabel: 'Library' },
  { id: 'analysis', label: 'Analysis', menuLabel: 'Analysis' },
  { id: 'watched', label: 'Watched', menuLabel: 'Watched Queries' },
  { id: 'usage', label: 'Usage', menuLabel: 'Usage' },
  { id: 'settings', label: 'Settings', menuLabel: 'Settings' },
] as const;
export type PageId = (typeof PAGES)[number]['id'];

export function isPageId(v: unknown): v is PageId {
  return typeof v === 'string' && PAGES.some((p) => p.id === v);
}
