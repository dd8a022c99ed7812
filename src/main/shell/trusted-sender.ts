import { isAppUrl, type AppLocation } from './app-location';

/** The parts of Electron's WebFrameMain the decision needs. */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
}

/**
 * A bridge call is trusted only from the main window's top frame (not an iframe, not another window)
 * while that frame shows the app's own page. Anything else — no frame (it navigated away or was
 * destroyed), a sub-frame, a foreign URL — is refused.
 */
export function isTrustedFrame(
  frame: FrameLike | null | undefined,
  mainFrame: FrameLike | null | undefined,
  loc: AppLocation,
): boolean {
  if (!frame || !mainFrame) return false;
  if (frame !== mainFrame) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url, loc);
}
