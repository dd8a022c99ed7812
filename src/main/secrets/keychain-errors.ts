import { AppError } from '@shared/ipc/errors';
import type { KeychainProblem } from '@shared/profiles/profiles-contract';

const NEVER_IN_FILE = 'Portolan keeps API keys only in the system keychain, never in a plain file.';

/**
 * Keychain trouble that carries its parts as well as its message: the banner says what happened and
 * what to do in the analyst's words, and the system's text only as a detail under them.
 */
export class KeychainError extends AppError {
  readonly problem: KeychainProblem;
  constructor(problem: KeychainProblem, message: string) {
    super('KeychainUnavailable', message);
    this.problem = problem;
  }
}

/** What happened (a sentence of its own) and what to do, from the system's text. */
function advice(platform: NodeJS.Platform, raw: string): { problem: string; action: string } {
  if (/locked collection|is locked|locked/i.test(raw)) {
    return {
      problem: platform === 'darwin' ? 'Your login keychain is locked.' : 'Your login keyring is locked.',
      action:
        platform === 'darwin'
          ? 'Unlock the login keychain in Keychain Access, then try again.'
          : 'Unlock your login keyring (log in to the desktop session, or open "Passwords and Keys" / KWallet and unlock it), then try again.',
    };
  }
  if (/dismiss|cancel|denied|not allowed|user interaction/i.test(raw)) {
    return {
      problem: 'Access to the keychain was refused, or its unlock prompt was dismissed.',
      action:
        platform === 'darwin'
          ? 'Allow Portolan when macOS asks for keychain access (or grant it in Keychain Access), then try again.'
          : 'Accept the keyring prompt when it appears, then try again.',
    };
  }
  if (platform === 'darwin') {
    return {
      problem: 'The macOS Keychain did not answer.',
      action: 'Open Keychain Access, check that the login keychain exists and is unlocked, then try again.',
    };
  }
  if (platform === 'win32') {
    return {
      problem: 'The Windows Credential Manager did not answer.',
      action: 'Check that the Credential Manager service is running for your user account, then try again.',
    };
  }
  return {
    problem:
      'No Secret Service is running for your session: the keyring program (GNOME Keyring or KWallet) or the D-Bus session it answers on is missing.',
    action:
      'Install and start GNOME Keyring (gnome-keyring) or KWallet and unlock it, then try again. Over SSH or in a container, start one with `dbus-run-session` and `gnome-keyring-daemon --unlock`.',
  };
}

function rawText(cause: unknown): string {
  return (cause instanceof Error ? cause.message : String(cause)).replace(/\s+/g, ' ').slice(0, 200);
}

/** The parts as one message, for the places that show an error whole (a form's error line). */
function asError(problem: KeychainProblem): KeychainError {
  return new KeychainError(
    problem,
    `The system keychain cannot be used. ${problem.problem} ${problem.action} ${NEVER_IN_FILE} (The system said: ${problem.detail})`,
  );
}

/** Keychain trouble as a person can act on it: what is wrong, what to do, and that there is no file fallback. */
export function keychainUnavailable(
  cause: unknown,
  platform: NodeJS.Platform = process.platform,
): KeychainError {
  const detail = rawText(cause);
  return asError({ ...advice(platform, detail), detail });
}

/**
 * keytar's native module is absent (its build needs the libsecret headers on Linux): the keychain
 * cannot be reached at all, and the one fix is to install the build's prerequisites and rebuild.
 */
export function keychainModuleMissing(
  cause: unknown,
  platform: NodeJS.Platform = process.platform,
): KeychainError {
  return asError({
    problem: "Portolan's keychain module (keytar) is not installed on this machine.",
    action:
      platform === 'linux'
        ? 'Install the packages it is built with and a Secret Service (on Debian or Ubuntu: `sudo apt-get install libsecret-1-dev gnome-keyring dbus`), then run `npm start` again: it rebuilds the module.'
        : 'Run `npm ci` again with a connection to the npm registry so that its prebuilt binary can be installed, then restart Portolan.',
    detail: rawText(cause),
  });
}
