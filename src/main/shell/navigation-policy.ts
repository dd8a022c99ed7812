/**
 * The window never navigates and never opens another window: the renderer is a single page routed by
 * hash. A link that tries to leave may at most be handed to the user's browser — only https, and only
 * after shell.openExternal's allow-list agrees. This returns that candidate, or null to just drop it.
 */
export function externalLinkCandidate(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' ? u.href : null;
  } catch {
    return null;
  }
}
