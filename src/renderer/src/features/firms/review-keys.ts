import type { ReviewAction } from '@shared/app/app-contract';

/** What a key does in the review queue (the command table lists the same keys for the menu and the palette). */
export type ReviewKeyAction = ReviewAction;

type KeyLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'target'>;

/** Whether the key is typed into something (a field, a menu, a dialog) rather than meant for the queue. */
function typing(target: EventTarget | null): boolean {
  const el = target as (Element & { isContentEditable?: boolean }) | null;
  if (!el || typeof el.closest !== 'function') return false;
  if (el.isContentEditable) return true;
  return el.closest('input, textarea, select, [role="dialog"], [role="menu"], [role="listbox"]') !== null;
}

/**
 * The review queue's keys: A accepts (one firm), R rejects (different firms), ↓/→ skip, ↑/← go back,
 * Ctrl/Cmd+Z undoes the last verdict. Keys typed into a field or a dialog are left alone.
 */
export function reviewKey(e: KeyLike): ReviewKeyAction | null {
  if (typing(e.target)) return null;
  // Arrows on the tabs move between the tabs.
  const onTabs = (e.target as Element | null)?.closest?.('[role="tablist"]') ?? null;
  if (onTabs && e.key.startsWith('Arrow')) return null;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === 'z' || e.key === 'Z')) return 'undo';
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'a':
    case 'A':
      return 'same';
    case 'r':
    case 'R':
      return 'different';
    case 'ArrowDown':
    case 'ArrowRight':
      return 'next';
    case 'ArrowUp':
    case 'ArrowLeft':
      return 'previous';
    default:
      return null;
  }
}
