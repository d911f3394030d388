import { createHash, randomBytes } from 'node:crypto';

/** A random URL-safe token (256 bits) and its SHA-256 hash, the only form stored. */
export function newToken(prefix = ''): { token: string; hash: string } {
  const token = prefix + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
