import { useEffect, useRef } from 'react';

/** Where Escape belongs to something else: a dialog, drawer or the palette, an open menu or list. */
const TAKES_ESCAPE =
  '[role="dialog"], [aria-modal="true"], [role="menu"], [role="listbox"], [aria-expanded="true"]';

/**
 * Whether an Escape press is the page's to take: not when a dialog, a drawer or the command palette is
 * open (Escape closes it, and only it), nor when the focus is on a control that closes its own list.
 */
export function escapeIsThePages(e: KeyboardEvent): boolean {
  if (e.key !== 'Escape' || e.defaultPrevented) return false;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest(TAKES_ESCAPE)) return false;
  return document.querySelector('[role="dialog"], [aria-modal="true"]') === null;
}

/**
 * Escape cancels the page's running work, as its Cancel button does (keyboard first). Listens only
 * while `running`, so Escape means nothing more than usual otherwise.
 */
export function useEscapeCancels(running: boolean, cancel: () => void): void {
  const latest = useRef(cancel);
  useEffect(() => {
    latest.current = cancel;
  });
  useEffect(() => {
    if (!running) return;
    const onKey = (e: KeyboardEvent): void => {
      if (!escapeIsThePages(e)) return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [running]);
}
