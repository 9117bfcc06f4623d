import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Recognizable prefixes let secret scanners find leaked credentials and let us tell an
 * access token from a refresh token before any lookup.
 */
export const PREFIX = {
  clientId: 'knap_ci_',
  clientSecret: 'knap_cs_',
  accessToken: 'knap_at_',
  refreshToken: 'knap_rt_',
} as const;

/** 32 random bytes (256 bits), base64url, behind a prefix. */
export const newSecret = (prefix: string): string => prefix + randomBytes(32).toString('base64url');

/** Client ids are public identifiers: 128 bits is plenty and keeps them short. */
export const newClientId = (): string => PREFIX.clientId + randomBytes(16).toString('hex');

/**
 * Secrets and tokens are high-entropy, so a fast SHA-256 is the right hash (a slow KDF
 * such as bcrypt would only add ~100 ms per token request).
 */
export const hashCredential = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Constant-time comparison of two hex digests. */
export const digestsEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
};

/**
 * A write's own token, stored in what it writes: when the SDK sends the write again after an
 * answer was lost, the write that finds its own token recognizes itself (12 bytes: unique
 * enough for the seconds a retry takes, small on an item every request rewrites).
 */
export const newWriteToken = (): string => randomBytes(12).toString('base64url');
