import { useMemo, type KeyboardEvent } from 'react';

/**
 * Controls that take Enter for themselves: a button (or link) activates itself, a textarea starts a
 * new line, a file field opens its picker.
 */
const TAKES_ENTER =
  'button, a[href], textarea, [contenteditable]:not([contenteditable="false"]), input[type="button"], input[type="submit"], input[type="reset"], input[type="image"], input[type="file"]';

function plainEnter(e: KeyboardEvent): boolean {
  return (
    e.key === 'Enter' &&
    !e.ctrlKey &&
    !e.metaKey &&
    !e.altKey &&
    !e.shiftKey &&
    !e.nativeEvent.isComposing &&
    // An input method's Enter (it confirms the text composed): keyCode 229 while it composes.
    e.nativeEvent.keyCode !== 229
  );
}

/** Whether the control's list is open: Enter there picks an option, not the form's action. */
function listOpen(el: Element): boolean {
  return el.getAttribute('aria-expanded') === 'true' || el.hasAttribute('data-expanded');
}

/** A select that is not typed in (read-only, its list closed): Mantine's Select opens on Enter there. */
export function isClosedButtonList(el: EventTarget): boolean {
  return (
    el instanceof HTMLInputElement &&
    el.readOnly &&
    el.getAttribute('aria-haspopup') === 'listbox' &&
    !listOpen(el)
  );
}

/**
 * Runs the form as a browser's implicit submission does: through its default button (the first submit
 * button), and not at all while that button is disabled (the action cannot run yet).
 */
function submit(form: EventTarget): void {
  if (!(form instanceof HTMLFormElement)) return;
  const button = form.querySelector<HTMLButtonElement | HTMLInputElement>(
    'button[type="submit"], button:not([type]), input[type="submit"]',
  );
  if (button?.disabled) return;
  form.requestSubmit(button);
}

export interface EnterSubmitsProps {
  onKeyDownCapture(e: KeyboardEvent<HTMLElement>): void;
  onKeyDown(e: KeyboardEvent<HTMLElement>): void;
}

/**
 * Enter runs a dialog's (or an in-place form's) primary action from any of its controls, as it does
 * from a text field: a radio button, a checkbox, a switch, a segmented choice, a closed list. Spread
 * the props on the `<form>` whose submit button is that action.
 *
 * Left alone: a control that takes Enter for itself (a button, a textarea), a list that is open (Enter
 * picks its option), and a key a control already handled (`preventDefault`, as a picker adding what is
 * typed does). A closed Select that is not typed in opens on Enter in Mantine: there Enter runs the
 * form instead, and Space or ↓ open the list.
 */
export function useEnterSubmits(): EnterSubmitsProps {
  return useMemo(
    () => ({
      onKeyDownCapture(e) {
        if (!plainEnter(e) || !isClosedButtonList(e.target)) return;
        e.preventDefault();
        e.stopPropagation();
        submit(e.currentTarget);
      },
      onKeyDown(e) {
        if (!plainEnter(e) || e.defaultPrevented) return;
        const target = e.target;
        // Only the form's own controls: React also bubbles keys from what it portals elsewhere.
        if (!(target instanceof Element) || !e.currentTarget.contains(target)) return;
        if (target.closest(TAKES_ENTER) || listOpen(target)) return;
        e.preventDefault();
        submit(e.currentTarget);
      },
    }),
    [],
  );
}
