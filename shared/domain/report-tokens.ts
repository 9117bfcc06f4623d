/**
 * Report tokens: the credential a `knap.run` message hands its executor, good only for posting
 * events to that one run, until 24 hours after the attempt that carried it (and, checked
 * against the run's events, never after its terminal event).
 *
 * Sealed with the project's token keys (the same keyring as access and refresh tokens,
 * sealed-tokens.ts), but never under the same MAC key: each key of the ring gives a report
 * key of its own, HMAC-SHA256(key, REPORT_KEY_LABEL), so no MAC made for an access or refresh
 * token (nor any other use of the ring) can ever verify as a report token, nor the reverse.
 * Its prefix (`knap_rpt_`) tells it apart before any check, for people and secret scanners;
 * the bearer check of every other route takes only `knap_at_`, so a report token is unknown
 * there (401), to introspection (`{"active": false}`) and to revocation (ignored).
 *
 * Layout (base64url after the prefix):
 *
 * | bytes | field                                                  |
 * |-------|--------------------------------------------------------|
 * | 1     | format version: 1                                      |
 * | 4     | key id: the ring key's id (sealed-tokens.ts tokenKey)  |
 * | 4     | expires at (epoch seconds, uint32)                     |
 * | 1 + n | run id (UTF-8, at most 64 bytes)                       |
 * | 1 + n | the run's organization (UTF-8, at most 64 bytes): metered with no read |
 * | 16    | HMAC-SHA256 of all the above under the report key, truncated to 128 bits |
 *
 * Accepted only in its exact issued spelling: the body is decoded, encoded again and compared,
 * and the run id it names comes from the MAC-checked bytes, never from the URL.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TokenKey, TokenKeyring } from './sealed-tokens.js';

export const REPORT_TOKEN_PREFIX = 'knap_rpt_';
/** How long a report token lives after the attempt that carried it. */
export const REPORT_TOKEN_SECONDS = 24 * 3600;
/** Domain separation: the report key of a ring key is its HMAC of this label. */
const REPORT_KEY_LABEL = 'knap report token key v1';
const VERSION = 1;
const MAC_BYTES = 16;
const MAX_FIELD_BYTES = 64;
const FIXED_BYTES = 1 + 4 + 4;
/** The longest report token, prefix included. */
export const MAX_REPORT_TOKEN_LENGTH =
  REPORT_TOKEN_PREFIX.length + Math.ceil(((FIXED_BYTES + 2 * (1 + MAX_FIELD_BYTES) + MAC_BYTES) * 4) / 3);

export interface ReportClaims {
  runId: string;
  orgName: string;
  /** Epoch seconds. */
  expiresAt: number;
}

const field = (value: string, name: string): Buffer => {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length === 0 || bytes.length > MAX_FIELD_BYTES) throw new Error(`A report token's ${name} is 1 to 64 bytes`);
  return Buffer.concat([Buffer.of(bytes.length), bytes]);
};

/** A length-prefixed field at `offset` of at least one byte; null when it runs past `end`. */
const readField = (bytes: Buffer, offset: number, end: number): { value: string; next: number } | null => {
  const length = bytes[offset];
  if (length === undefined || length === 0 || offset + 1 + length > end) return null;
  return { value: bytes.subarray(offset + 1, offset + 1 + length).toString('utf8'), next: offset + 1 + length };
};

/** The report key of a ring key, kept per key object (the ring's keys are long-lived). */
const reportKeys = new WeakMap<TokenKey, Buffer>();
const reportKeyOf = (key: TokenKey): Buffer => {
  let derived = reportKeys.get(key);
  if (!derived) {
    derived = createHmac('sha256', key.secret).update(REPORT_KEY_LABEL).digest();
    reportKeys.set(key, derived);
  }
  return derived;
};

const mac = (key: TokenKey, body: Buffer): Buffer =>
  createHmac('sha256', reportKeyOf(key)).update(body).digest().subarray(0, MAC_BYTES);

/** A report token for `runId`, good until `expiresAt` (epoch seconds), sealed with the ring's signing key. */
export const sealReportToken = async (claims: ReportClaims, keyring: TokenKeyring): Promise<string> =>
  sealReportTokenWith(claims, await keyring.signingKey());

/** The same, with a given key (fixtures for local invocation seal with theirs). */
export const sealReportTokenWith = (claims: ReportClaims, key: TokenKey): string => {
  if (!Number.isInteger(claims.expiresAt) || claims.expiresAt < 0 || claims.expiresAt > 0xffffffff)
    throw new Error("A report token's expiry is out of range");
  const expires = Buffer.alloc(4);
  expires.writeUInt32BE(claims.expiresAt);
  const body = Buffer.concat([
    Buffer.of(VERSION),
    Buffer.from(key.id, 'hex'),
    expires,
    field(claims.runId, 'run id'),
    field(claims.orgName, 'organization'),
  ]);
  return REPORT_TOKEN_PREFIX + Buffer.concat([body, mac(key, body)]).toString('base64url');
};

/**
 * The claims of a report token whose MAC holds under a key of the ring, else null: anything
 * else, altered, truncated, extended, respelled, an access or refresh token, a key retired.
 * Expiry and the run are the caller's to compare (verifyReportToken).
 */
export const openReportToken = async (token: string, keyring: TokenKeyring): Promise<ReportClaims | null> => {
  if (token.length > MAX_REPORT_TOKEN_LENGTH || !token.startsWith(REPORT_TOKEN_PREFIX)) return null;
  const text = token.slice(REPORT_TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  // One spelling only: spare bits in the last character would give one token many spellings.
  if (bytes.toString('base64url') !== text) return null;
  if (bytes.length < FIXED_BYTES + 4 + MAC_BYTES || bytes[0] !== VERSION) return null;
  const end = bytes.length - MAC_BYTES;
  const runId = readField(bytes, FIXED_BYTES, end);
  const org = runId && readField(bytes, runId.next, end);
  if (!runId || !org || org.next !== end) return null;
  const key = await keyring.verifyingKey(bytes.subarray(1, 5).toString('hex'));
  if (!key) return null;
  if (!timingSafeEqual(mac(key, bytes.subarray(0, end)), bytes.subarray(end))) return null;
  return { expiresAt: bytes.readUInt32BE(5), runId: runId.value, orgName: org.value };
};

/** Why a presented report token is refused; checkReportToken gives its claims when it is good for `runId` at `nowSeconds`. */
export type ReportTokenRefusal = 'invalid' | 'expired' | 'other_run';

export const checkReportToken = async (
  token: string,
  runId: string,
  nowSeconds: number,
  keyring: TokenKeyring,
): Promise<ReportClaims | ReportTokenRefusal> => {
  const claims = await openReportToken(token, keyring);
  if (!claims) return 'invalid';
  if (claims.runId !== runId) return 'other_run';
  if (nowSeconds >= claims.expiresAt) return 'expired';
  return claims;
};
