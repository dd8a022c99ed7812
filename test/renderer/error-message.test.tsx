// @vitest-environment jsdom
import { cleanup, render, screen } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_KINDS, waitSentence, type BridgeError } from '@shared/ipc/errors';
import { ErrorMessage, messageWithWaitLeft } from '../../src/renderer/src/components/error-message';
import { TryAgainButton } from '../../src/renderer/src/components/try-again-button';
import { KeychainBanner } from '../../src/renderer/src/features/settings/keychain-banner';

afterEach(cleanup);

describe('ErrorMessage', () => {
  it('never shows the internal kind to the analyst, and keeps it on data-error-kind', () => {
    for (const kind of ERROR_KINDS) {
      render(<ErrorMessage error={{ kind, message: 'The tag is too long.' }} testId={`err-${kind}`} />);
      const box = screen.getByTestId(`err-${kind}`);
      expect(box.getAttribute('data-error-kind')).toBe(kind);
      expect(box.textContent).toContain('The tag is too long.');
      expect(box.textContent).not.toContain(kind);
    }
  });

  it("keeps the system's own text of a file failure as a small detail under the words", () => {
    render(
      <ErrorMessage
        error={{
          kind: 'StorageLocked',
          message: "Another program is holding one of Portolan's data files.",
          detail: "EBUSY: resource busy or locked, open '/data/presets.json'",
        }}
        testId="err"
      />,
    );
    const detail = screen.getByTestId('system-detail');
    expect(detail.textContent).toBe(
      "The system said: EBUSY: resource busy or locked, open '/data/presets.json'",
    );
    expect(screen.getByTestId('err').querySelector('.message__text')?.textContent).toBe(
      "Another program is holding one of Portolan's data files.",
    );
    render(<ErrorMessage error={{ kind: 'StorageLocked', message: 'Held.' }} testId="err2" />);
    expect(screen.getByTestId('err2').querySelector('[data-testid="system-detail"]')).toBeNull();
  });

  it('heads an unexpected failure in plain words and keeps the HTTP status', () => {
    render(
      <ErrorMessage
        error={{ kind: 'ServiceError', message: 'The service failed.', status: 503 }}
        testId="err"
      />,
    );
    expect(screen.getByTestId('err').textContent).toBe(
      'The service reported a problem: The service failed. (HTTP 503)',
    );
  });

  it('adds no success status to an answer that arrived but could not be read', () => {
    render(
      <ErrorMessage
        error={{
          kind: 'BadResponse',
          message: 'The service answered, but its answer could not be read.',
          status: 200,
        }}
        testId="bad"
      />,
    );
    expect(screen.getByTestId('bad').textContent).toBe(
      'Unexpected answer from the service: The service answered, but its answer could not be read.',
    );
  });

  it('says the status once: not again after a message that names it', () => {
    render(
      <ErrorMessage
        error={{
          kind: 'LimitExceeded',
          message: 'Request limit reached for account main (429). Try again in 1 s.',
          status: 429,
        }}
        testId="limit"
      />,
    );
    expect(screen.getByTestId('limit').textContent).toBe(
      'Limit reached: Request limit reached for account main (429). Try again in 1 s.',
    );
    render(
      <ErrorMessage
        error={{
          kind: 'ServiceError',
          message:
            'The service is having trouble and did not answer (status 503 Service Unavailable, after 4 attempts). Try again in a few minutes.',
          status: 503,
        }}
        testId="503"
      />,
    );
    expect(screen.getByTestId('503').textContent).not.toContain('HTTP 503');
    expect(screen.getByTestId('503').textContent?.match(/503/g)).toHaveLength(1);
  });

  it('shows a command written between backticks as code to type, without the backticks', () => {
    const message =
      'The system keychain cannot be used. Over SSH, start one with `dbus-run-session` and `gnome-keyring-daemon --unlock`.';
    render(<ErrorMessage error={{ kind: 'KeychainUnavailable', message }} testId="err" />);
    render(
      <KeychainBanner
        problem={{
          problem: 'No Secret Service is running for your session.',
          action: 'Over SSH, start one with `dbus-run-session` and `gnome-keyring-daemon --unlock`.',
          detail: 'Could not connect: No such file or directory',
        }}
      />,
    );
    for (const box of [screen.getByTestId('err'), screen.getByTestId('keychain-action')]) {
      expect(box.textContent).not.toContain('`');
      expect(box.textContent).toContain('start one with dbus-run-session and gnome-keyring-daemon --unlock.');
      expect([...box.querySelectorAll('code')].map((c) => c.textContent)).toEqual([
        'dbus-run-session',
        'gnome-keyring-daemon --unlock',
      ]);
    }
  });
});

describe("a limit's wait, counted down", () => {
  const limit = (seconds: number): BridgeError => ({
    kind: 'LimitExceeded',
    message: `Request limit reached (429). ${waitSentence(seconds)}`,
    retryAfterSeconds: seconds,
  });

  it('reads in the message as the service gave it, then as it is left, then as over', () => {
    expect(messageWithWaitLeft(limit(45), 45_000)).toBe('Request limit reached (429). Try again in 45 s.');
    expect(messageWithWaitLeft(limit(45), 12_300)).toBe('Request limit reached (429). Try again in 13 s.');
    expect(messageWithWaitLeft(limit(45), 0)).toBe(
      'Request limit reached (429). The wait is over: you can try again.',
    );
    // No wait given, or a message that does not end with it: the message as main wrote it.
    const noWait: BridgeError = { kind: 'LimitExceeded', message: 'Used up. Waiting will not help.' };
    expect(messageWithWaitLeft(noWait, 0)).toBe(noWait.message);
    const elsewhere = { ...limit(45), message: 'Try again in 45 s. Then ask for fewer records.' };
    expect(messageWithWaitLeft(elsewhere, 0)).toBe(elsewhere.message);
  });

  it('is said alike by the message and by the Try again beside it, past a minute too', () => {
    for (const msLeft of [30_000, 95_000, 150_000, 3 * 3600_000]) {
      render(<TryAgainButton msLeft={msLeft} testId={`again-${msLeft}`} />);
      const button = screen.getByTestId(`again-${msLeft}`).textContent ?? '';
      const message = messageWithWaitLeft(limit(3 * 3600), msLeft);
      expect(message.endsWith(` ${button}.`), `${button} / ${message}`).toBe(true);
    }
  });
});
