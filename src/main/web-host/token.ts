import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, URL-safe so it can ride in the launch URL's fragment unescaped. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Constant-time comparison. Both sides are hashed first so inputs of different lengths take the same
 * path and timingSafeEqual never throws on a length mismatch (which itself would leak the length).
 */
export function tokensEqual(expected: string, presented: string | undefined | null): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}
