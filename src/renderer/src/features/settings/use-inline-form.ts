import { useEffect, type RefObject } from 'react';
import { useDialogFocus } from '../../components/use-dialog-focus';

/**
 * A form that opens in place of what it edits behaves as a dialog: its first field takes the focus,
 * Escape cancels, the focus goes back to the button that opened it, and the whole form (its Save
 * included) is scrolled into view, also when it opens low on the page.
 */
export function useInlineForm(
  ref: RefObject<HTMLElement | null>,
  open: boolean,
  cancel: () => void,
  /** The button that opens the form on the page, for the focus when it was opened from elsewhere. */
  returnTo?: RefObject<HTMLElement | null>,
): void {
  useDialogFocus(ref, open, cancel, { returnTo });
  useEffect(() => {
    // After the focus moved to the first field (the effect above): 'nearest' then brings the rest in.
    if (open) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [ref, open]);
}
