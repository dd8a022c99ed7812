import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keyboard behaviour of a dialog or popover, as analysts expect from a desktop app: focus moves into
 * it when it opens and back to where it was when it closes, Escape closes it, and (for a modal) Tab
 * stays inside, so keyboard users never end up on the page behind it.
 */
export function useDialogFocus(
  container: RefObject<HTMLElement | null>,
  open: boolean,
  onEscape: () => void,
  opts: {
    trap?: boolean;
    /**
     * Where the focus goes when it closes if the control it came from is gone (it was opened from the
     * menu, the command palette or another page): the control that opens it on its page.
     */
    returnTo?: RefObject<HTMLElement | null>;
  } = {},
): void {
  const escape = useRef(onEscape);
  // The latest handler, without re-running the effect below (which would move focus again).
  useEffect(() => {
    escape.current = onEscape;
  });
  const trap = opts.trap ?? false;
  const returnTo = opts.returnTo;

  useEffect(() => {
    const el = container.current;
    if (!open || !el) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const fallback = returnTo?.current ?? null;
    el.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        escape.current();
        return;
      }
      if (!trap || e.key !== 'Tab') return;
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    el.addEventListener('keydown', onKey);
    return () => {
      el.removeEventListener('keydown', onKey);
      // Back to the control that opened it, if it is still on the page.
      if (before?.isConnected && before !== document.body) before.focus();
      else if (fallback?.isConnected) fallback.focus();
    };
  }, [container, open, trap, returnTo]);
}
