import { expect, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from './render';
import type { useServiceBackend } from './service-backend';

/** A dialog whose cost check can fail (Fetch all's, the Watched refresh's), as its test reads it. */
export interface CostCheckDialog {
  /** The prefix of its parts' test ids: `…-error`, `…-again`, `…-confirm`. */
  ids: string;
  /** The test id of the cost it shows once checked. */
  costId: string;
  /** What its confirm button says once the cost is shown. */
  confirmLabel: string;
  /** Whether its check is over (answered or failed), as its store says. */
  checkOver(): boolean;
  /** The error its store holds for the check (null for none). */
  error(): { kind: string } | null | undefined;
}

/**
 * A cost check while the service restarts: with the service stopped, `ask` ends in 'The cost could not
 * be checked' with a focused Try again in place of the confirm button; Try again (Enter, as a submit)
 * while it is still down fails the same way; once the service is back, Try again shows the cost and
 * the confirm button, enabled. Returns the first error's text and that button for the dialog's own
 * checks.
 */
export async function costCheckWhileServiceRestarts(
  backend: ReturnType<typeof useServiceBackend>,
  dialog: CostCheckDialog,
  ask: () => Promise<void>,
): Promise<{ firstError: string; confirm: HTMLElement }> {
  const id = (part: string) => `${dialog.ids}-${part}`;

  await backend.stopService();
  await act(ask);
  const error = await screen.findByTestId(id('error'));
  expect(error.getAttribute('data-error-kind')).toBe('NetworkError');
  const firstError = error.textContent ?? '';
  expect(screen.getByText('The cost could not be checked')).toBeTruthy();
  // Try again in place of the confirm button it cannot use, and focused: Enter runs it.
  const again = screen.getByTestId(id('again'));
  expect(again.textContent).toBe('Try again');
  await waitFor(() => expect(document.activeElement).toBe(again));
  expect(screen.queryByTestId(id('confirm'))).toBeNull();

  // Still down: the same failure, Try again still offered.
  await act(async () => {
    fireEvent.submit(again.closest('form')!);
  });
  await waitFor(() => expect(dialog.checkOver()).toBe(true));
  expect(dialog.error()?.kind).toBe('NetworkError');
  expect(screen.getByTestId(id('again'))).toBeTruthy();

  await backend.startService();
  await act(async () => {
    fireEvent.click(screen.getByTestId(id('again')));
  });
  await screen.findByTestId(dialog.costId, {}, { timeout: 10_000 });
  expect(dialog.error()).toBeNull();
  expect(screen.queryByTestId(id('error'))).toBeNull();
  expect(screen.queryByTestId(id('again'))).toBeNull();
  const confirm = screen.getByTestId(id('confirm'));
  expect(confirm.textContent).toBe(dialog.confirmLabel);
  expect(confirm.hasAttribute('disabled')).toBe(false);
  return { firstError, confirm };
}

/**
 * A cost check refused for its filter (`ask` asks one whose dates are the wrong way round): the
 * service is never asked, and asking again would not help, so no Try again is offered and the confirm
 * button stays disabled. Returns the error for the dialog's own checks.
 */
export async function costCheckRefusedForItsFilter(
  dialog: CostCheckDialog,
  ask: () => Promise<void>,
): Promise<HTMLElement> {
  await act(ask);
  const error = await screen.findByTestId(`${dialog.ids}-error`);
  expect(dialog.error()?.kind).toBe('InvalidInput');
  expect(screen.queryByTestId(`${dialog.ids}-again`)).toBeNull();
  expect(screen.getByTestId(`${dialog.ids}-confirm`).hasAttribute('disabled')).toBe(true);
  return error;
}

/**
 * A cost check refused for a limit with a wait longer than the client waits out by itself (30 s): 'The
 * cost could not be checked' with Try again held and the wait counted down on it; Enter (a submit) and
 * the store's own `askAgain` before the wait is over send nothing. Once the clock has passed the wait,
 * Try again is enabled and focused, and Enter shows the cost with one or more requests.
 */
export async function costCheckRefusedForALimit(
  backend: ReturnType<typeof useServiceBackend>,
  dialog: CostCheckDialog,
  ask: () => Promise<void>,
  askAgain: () => Promise<void>,
): Promise<void> {
  const id = (part: string) => `${dialog.ids}-${part}`;
  backend.setFaults({ burst429: { every: 1, count: 1, retryAfter: 30 } });
  await act(ask);
  backend.setFaults(undefined);
  const error = await screen.findByTestId(id('error'));
  expect(error.getAttribute('data-error-kind')).toBe('LimitExceeded');
  expect(screen.getByText('The cost could not be checked')).toBeTruthy();
  const again = screen.getByTestId(id('again'));
  expect(again.textContent).toMatch(/^Try again in (29|30) s$/);
  expect(error.textContent).toMatch(/Try again in (29|30) s\.$/);
  expect(again.hasAttribute('disabled')).toBe(true);
  expect(screen.queryByTestId(id('confirm'))).toBeNull();

  // Asked again before the wait is over, the service would only refuse it again, and count it.
  const before = await backend.requestsServed();
  await act(async () => {
    fireEvent.submit(again.closest('form')!);
  });
  await act(askAgain);
  expect(dialog.error()?.kind).toBe('LimitExceeded');
  expect((await backend.requestsServed()) - before).toBe(0);

  // The wait passes (the clock moved on; the countdown reads it once a second).
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() + 31_000);
    await waitFor(() => expect(screen.getByTestId(id('again')).textContent).toBe('Try again'), {
      timeout: 3_000,
    });
    const ready = screen.getByTestId(id('again'));
    expect(ready.hasAttribute('disabled')).toBe(false);
    // The message no longer gives the wait it had when it came.
    const over = screen.getByTestId(id('error')).textContent ?? '';
    expect(over).toMatch(/The wait is over: you can try again\.$/);
    expect(over).not.toMatch(/Try again in/);
    // Focused once it can run: Enter runs it.
    await waitFor(() => expect(document.activeElement).toBe(ready));
    await act(async () => {
      fireEvent.submit(ready.closest('form')!);
    });
    await screen.findByTestId(dialog.costId, {}, { timeout: 10_000 });
  } finally {
    vi.useRealTimers();
  }
  expect((await backend.requestsServed()) - before).toBeGreaterThan(0);
  expect(screen.queryByTestId(id('again'))).toBeNull();
  expect(screen.getByTestId(id('confirm')).textContent).toBe(dialog.confirmLabel);
}
