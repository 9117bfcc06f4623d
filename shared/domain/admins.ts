/**
 * Organization admins: people who manage their organization's API clients and webhook
 * endpoints. Each belongs to one organization; the local identity provider signs them in with
 * a password kept only as a slow salted hash (scrypt), deployed ones sign in with Cognito or the
 * team's own OpenID Connect issuer.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { type Clock, isoSeconds } from './clock.js';

export interface AdminAccount {
  /** Lower-cased: one account per address, however it is typed. */
  email: string;
  orgName: string;
  passwordHash: string;
  createdAt: string;
}

/**
 * The organization-name rule (contract, admin CLI): 1-64 letters, digits, `-`, `_` and `.`,
 * starting with a letter or digit; `private` and `public` are visibility words. Null when the
 * name is fine, else why not.
 */
export const orgNameProblem = (orgName: string): string | null => {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(orgName)) {
    return `Organization names are 1-64 letters, digits, "-", "_" and ".", starting with a letter or digit, got "${orgName}"`;
  }
  if (/^(private|public)$/i.test(orgName)) return `"${orgName}" is a visibility word, not an organization name`;
  return null;
};

/** Addresses as people type them, within reason: one @, no spaces, a dot in the domain. */
export const normalizeEmail = (email: string): string | null => {
  const trimmed = email.trim().toLowerCase();
  return /^[^@\s]{1,64}@[^@\s]+\.[^@\s]{2,}$/.test(trimmed) && trimmed.length <= 254 ? trimmed : null;
};

/** scrypt's cost: 2^15 x 8 x 128 bytes = 32 MiB and ~50-100 ms a hash, as OWASP suggests for scrypt. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;

const derive = (password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { ...cost, maxmem: SCRYPT.maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

/** `scrypt$N$r$p$salt$key` (base64url), so the cost can rise later and old hashes still verify. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const derived = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return derived.length === expected.length && timingSafeEqual(derived, expected);
};

/** A password for an admin the CLI makes without one: 128 bits, printed once. */
export const newAdminPassword = (): string => randomBytes(16).toString('base64url');

export const MIN_PASSWORD_LENGTH = 12;

export const newAdmin = async (
  input: { email: string; orgName: string; password: string },
  clock: Clock,
): Promise<AdminAccount> => ({
  email: input.email,
  orgName: input.orgName,
  passwordHash: await hashPassword(input.password),
  createdAt: isoSeconds(clock.now()),
});
