import { AppError } from '@shared/ipc/errors';

const NEVER_IN_FILE = 'Portolan keeps API keys only in the system keychain, never in a plain file.';

function advice(platform: NodeJS.Platform, raw: string): { problem: string; action: string } {
  if (/locked collection|is locked|locked/i.test(raw)) {
    return {
      problem: 'the keyring is locked',
      action:
        platform === 'darwin'
          ? 'Unlock the login keychain in Keychain Access, then try again.'
          : 'Unlock your login keyring (log in to the desktop session, or open "Passwords and Keys" / KWallet and unlock it), then try again.',
    };
  }
  if (/dismiss|cancel|denied|not allowed|user interaction/i.test(raw)) {
    return {
      problem: 'access to the keychain was refused or the unlock prompt was dismissed',
      action:
        platform === 'darwin'
          ? 'Allow Portolan when macOS asks for keychain access (or grant it in Keychain Access), then try again.'
          : 'Accept the keyring prompt when it appears, then try again.',
    };
  }
  if (platform === 'darwin') {
    return {
      problem: 'the macOS Keychain did not answer',
      action: 'Open Keychain Access, check that the login keychain exists and is unlocked, then try again.',
    };
  }
  if (platform === 'win32') {
    return {
      problem: 'the Windows Credential Manager did not answer',
      action: 'Check that the Credential Manager service is running for your user account, then try again.',
    };
  }
  return {
    problem: 'no Secret Service is reachable (the keyring daemon or the D-Bus session is missing)',
    action:
      'Run Portolan inside a desktop session with D-Bus and a Secret Service provider: install and start GNOME Keyring (gnome-keyring) or KWallet, unlock it, then try again. Over SSH or in a container, start one with `dbus-run-session` and `gnome-keyring-daemon --unlock`.',
  };
}

/** Keychain trouble as a person can act on it: what is wrong, what to do, and that there is no file fallback. */
export function keychainUnavailable(cause: unknown, platform: NodeJS.Platform = process.platform): AppError {
  const raw = (cause instanceof Error ? cause.message : String(cause)).replace(/\s+/g, ' ').slice(0, 200);
  const { problem, action } = advice(platform, raw);
  return new AppError(
    'KeychainUnavailable',
    `The system keychain cannot be used: ${problem} (${raw}). ${action} ${NEVER_IN_FILE}`,
  );
}

/**
 * keytar's native module is absent (its build needs the libsecret headers on Linux): the keychain
 * cannot be reached at all, and the one fix is to install the build's prerequisites and rebuild.
 */
export function keychainModuleMissing(
  cause: unknown,
  platform: NodeJS.Platform = process.platform,
): AppError {
  const raw = (cause instanceof Error ? cause.message : String(cause)).replace(/\s+/g, ' ').slice(0, 200);
  const action =
    platform === 'linux'
      ? 'Install the packages it is built with and a Secret Service (on Debian or Ubuntu: `sudo apt-get install libsecret-1-dev gnome-keyring dbus`), then run `npm start` again: it rebuilds the module.'
      : 'Run `npm ci` again with a connection to the npm registry so that its prebuilt binary can be installed, then restart Portolan.';
  return new AppError(
    'KeychainUnavailable',
    `The system keychain cannot be used: Portolan's keychain module (keytar) is not installed on this machine (${raw}). ${action} ${NEVER_IN_FILE}`,
  );
}
