/**
 * Sealed tokens: a token that carries its own claims (client, generation, scope, times)
 * and an HMAC-SHA256 over them under a server key. A forged or altered token is refused
 * with no I/O at all, so it never reaches the table and never burns a client's quota; a
 * genuine one needs only the client's metering write, which also checks revocation.
 *
 * Layout (base64url after the `knap_at_` / `knap_rt_` prefix):
 *
 * | bytes | field                                                               |
 * |-------|---------------------------------------------------------------------|
 * | 1     | format version: 2 (1: sealed before grants were stored, still read)  |
 * | 1     | kind: 0 access, 1 refresh (also under the MAC)                      |
 * | 4     | key id: the first 4 bytes of sha256(key), to pick the key on verify  |
 * | 4 + 4 | issued at, expires at (epoch seconds, uint32)                       |
 * | 4     | the client's generation at issue                                    |
 * | 16    | random nonce: every token distinct; an access token's revocation id |
 * | 12    | access: the grant id of the refresh token it came with; refresh: 0s |
 * | 1 + n | client id (UTF-8)                                                   |
 * | 1 + n | scope (UTF-8, space-separated)                                      |
 * | 16    | HMAC-SHA256 of all the above, truncated to 128 bits                  |
 *
 * Tokens issued before sealing (32 random bytes, stored as sha256 items) are 43 characters
 * after the prefix; sealed ones are always longer, so the two never overlap.
 *
 * A token is accepted only in the exact spelling it was issued in: base64url's last character
 * has spare bits that decode to nothing, so the body is decoded, encoded again and compared.
 * Every id (token id, grant id) comes from the MAC-checked bytes, never from the spelling.
 *
 * Version 2 refresh tokens have a grant item in the table (created with them, deleted when
 * they are revoked); version 1 tokens, sealed by earlier versions, have none and may have
 * revocation marks on their client's item. Both live at most 30 days from their issue.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { hashCredential, PREFIX } from './credentials.js';

export type SealedKind = 'access' | 'refresh';

/** What a sealed token says about itself; trustworthy only once its MAC is checked. */
export interface TokenClaims {
  kind: SealedKind;
  clientId: string;
  generation: number;
  scope: string;
  issuedAt: number;
  expiresAt: number;
  /** base64url of the nonce: names this token in a revocation. */
  tokenId: string;
  /**
   * The grant: for an access token, the refresh token it was issued under (so revoking that
   * ends it; null only for tokens sealed without one); for a refresh token, its own grant id.
   */
  grantId: string | null;
  /** A refresh token's SHA-256 (hex), naming its grant item; null for an access token. */
  grantKey: string | null;
  /** 2, or 1 for tokens sealed before grants were stored (see the header). */
  version: number;
}

export interface TokenKey {
  /** 8 hex characters, from the key itself. */
  id: string;
  secret: Buffer;
}

/** Where token keys come from: a fixed list locally, Secrets Manager when deployed. */
export interface TokenKeyring {
  /** The key new tokens are sealed with. */
  signingKey(): Promise<TokenKey>;
  /** The key with this id, or null when it is unknown (a forged token, or a key retired). */
  verifyingKey(id: string): Promise<TokenKey | null>;
}

/** The version new tokens are sealed with. */
export const SEALED_VERSION = 2;
const VERSIONS_READ: ReadonlySet<number> = new Set([1, 2]);
const MAC_BYTES = 16;
const NONCE_BYTES = 16;
const GRANT_BYTES = 12;
const FIXED_BYTES = 1 + 1 + 4 + 4 + 4 + 4 + NONCE_BYTES + GRANT_BYTES;
/** The longest sealed body: client id and scope at their 255-byte limit, in base64url. */
export const MAX_SEALED_LENGTH = Math.ceil(((FIXED_BYTES + 2 + 255 + 255 + MAC_BYTES) * 4) / 3);
/** A key shorter than this is refused: HMAC-SHA256 wants at least 256 bits of key. */
export const MIN_KEY_BYTES = 32;
/** The length after the prefix of tokens issued before sealing: base64url of 32 bytes. */
export const LEGACY_TOKEN_LENGTH = 43;

export const tokenKey = (secret: Buffer): TokenKey => {
  if (secret.length < MIN_KEY_BYTES) throw new Error(`A token key needs at least ${MIN_KEY_BYTES} bytes`);
  return { id: createHash('sha256').update(secret).digest('hex').slice(0, 8), secret };
};

/** A keyring of fixed keys; the first signs, all verify (the rest are being retired). */
export const staticKeyring = (secrets: readonly Buffer[]): TokenKeyring => {
  if (secrets.length === 0) throw new Error('A keyring needs at least one key');
  const keys = secrets.map(tokenKey);
  const signing = keys[0] as TokenKey;
  const byId = new Map(keys.map((key) => [key.id, key]));
  return {
    signingKey: async () => signing,
    verifyingKey: async (id) => byId.get(id) ?? null,
  };
};

/** A keyring for where there are no keys: every use fails, saying why (a wiring or setup mistake). */
export const unavailableKeyring = (reason: string): TokenKeyring => {
  const refuse = () => Promise.reject(new Error(reason));
  return { signingKey: refuse, verifyingKey: refuse };
};

/**
 * The id a refresh token's access tokens name as their grant: a hash of the token, the same
 * for every version. Taken of the token in its one exact spelling (see unseal), so one grant
 * has one id; earlier versions hashed the string as given, which for that spelling is the same.
 */
export const grantIdOf = (refreshToken: string): string => grantOf(refreshToken).id;

/**
 * A refresh token's grant: the token's SHA-256 (hex, as every credential is kept: hashCredential)
 * names its item, and its first 12 bytes are the id access tokens carry (grantIdOf).
 */
const grantOf = (refreshToken: string): { id: string; key: string } => {
  const key = hashCredential(refreshToken);
  return { id: Buffer.from(key, 'hex').subarray(0, GRANT_BYTES).toString('base64url'), key };
};

const mac = (key: TokenKey, body: Buffer): Buffer =>
  createHmac('sha256', key.secret).update(body).digest().subarray(0, MAC_BYTES);

const shortString = (value: string, field: string): Buffer => {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > 255) throw new Error(`A sealed token's ${field} is limited to 255 bytes`);
  return Buffer.concat([Buffer.of(bytes.length), bytes]);
};

const uint32 = (value: number, field: string): Buffer => {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new Error(`A sealed token's ${field} is out of range`);
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};

export type ClaimsToSeal = Omit<TokenClaims, 'tokenId' | 'version' | 'grantKey'>;

/**
 * Seals claims into a token (a fresh nonce each time); the caller adds the prefix. `version`
 * is for tests that need a token as earlier versions sealed it.
 */
export const seal = (
  claims: ClaimsToSeal,
  key: TokenKey,
  version = SEALED_VERSION,
): { body: string; tokenId: string; grantId: string | null; grantKey: string | null } => {
  const nonce = randomBytes(NONCE_BYTES);
  // A refresh token's grant id is its own hash, known only once it is sealed: zeros here.
  const grant =
    claims.grantId === null || claims.kind === 'refresh' ? Buffer.alloc(GRANT_BYTES) : Buffer.from(claims.grantId, 'base64url');
  if (grant.length !== GRANT_BYTES) throw new Error('A grant id is 12 bytes');
  const body = Buffer.concat([
    Buffer.of(version, claims.kind === 'access' ? 0 : 1),
    Buffer.from(key.id, 'hex'),
    uint32(claims.issuedAt, 'issue time'),
    uint32(claims.expiresAt, 'expiry'),
    uint32(claims.generation, 'generation'),
    nonce,
    grant,
    shortString(claims.clientId, 'client id'),
    shortString(claims.scope, 'scope'),
  ]);
  const sealed = Buffer.concat([body, mac(key, body)]).toString('base64url');
  const own = ownGrant(claims.kind, sealed);
  return { body: sealed, tokenId: nonce.toString('base64url'), grantId: own?.id ?? claims.grantId, grantKey: own?.key ?? null };
};

/** A refresh token's own grant, from its exact body; null for an access token. */
const ownGrant = (kind: SealedKind, body: string): { id: string; key: string } | null =>
  kind === 'refresh' ? grantOf(PREFIX.refreshToken + body) : null;

/** Reads a length-prefixed string at `offset`; null when it runs past the end. */
const readShort = (bytes: Buffer, offset: number): { value: string; next: number } | null => {
  const length = bytes[offset];
  if (length === undefined || offset + 1 + length > bytes.length) return null;
  return { value: bytes.subarray(offset + 1, offset + 1 + length).toString('utf8'), next: offset + 1 + length };
};

/** The parts of a sealed token, before its MAC is checked; null when it is not shaped like one. */
const parse = (body: string) => {
  if (body.length > MAX_SEALED_LENGTH || !/^[A-Za-z0-9_-]+$/.test(body)) return null;
  const bytes = Buffer.from(body, 'base64url');
  // One spelling only: spare bits in the last character, or a character that decodes to no
  // whole byte, would otherwise give one token many spellings (and revocation one of them).
  if (bytes.toString('base64url') !== body) return null;
  const version = bytes[0] as number;
  if (bytes.length < FIXED_BYTES + 2 + MAC_BYTES || !VERSIONS_READ.has(version) || (bytes[1] !== 0 && bytes[1] !== 1))
    return null;
  const client = readShort(bytes, FIXED_BYTES);
  const scope = client && readShort(bytes, client.next);
  if (!client || !scope || scope.next + MAC_BYTES !== bytes.length) return null;
  const grant = bytes.subarray(FIXED_BYTES - GRANT_BYTES, FIXED_BYTES);
  const kind: SealedKind = bytes[1] === 0 ? 'access' : 'refresh';
  return {
    keyId: bytes.subarray(2, 6).toString('hex'),
    signed: bytes.subarray(0, scope.next),
    tag: bytes.subarray(scope.next),
    claims: {
      kind,
      issuedAt: bytes.readUInt32BE(6),
      expiresAt: bytes.readUInt32BE(10),
      generation: bytes.readUInt32BE(14),
      tokenId: bytes.subarray(18, 18 + NONCE_BYTES).toString('base64url'),
      // A refresh token's own grant is added once its MAC holds (unseal).
      grantId: grant.every((byte) => byte === 0) ? null : grant.toString('base64url'),
      grantKey: null,
      clientId: client.value,
      scope: scope.value,
      version,
    } satisfies TokenClaims,
  };
};

/**
 * Tokens whose MAC held, by their exact body. A client presents one access token for up to
 * an hour, and a warm function need not check the same MAC on every request: a hit costs one
 * lookup instead of decoding, re-encoding and an HMAC. Only a token whose MAC held gets in,
 * under the exact spelling it was checked in, so a variant of it is a miss and is checked in
 * full. An entry counts only while the ring still gives the very key it was checked under: a
 * key retired (or read again from its secret) sends the token back through the full check.
 * Expiry and revocation are not decided here; callers check them on every request, hit or not.
 * Bounded: the oldest entry goes when it is full.
 */
const verified = new Map<string, { keyId: string; key: TokenKey; claims: Readonly<TokenClaims> }>();
/** About 1 MB at the longest tokens; a function serves far fewer live tokens than this. */
export const VERIFIED_TOKENS_KEPT = 1024;

/** How many verified tokens are kept now (for tests of the bound). */
export const verifiedTokenCount = (): number => verified.size;

const keepVerified = (body: string, keyId: string, key: TokenKey, claims: Readonly<TokenClaims>): void => {
  if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value as string);
  verified.set(body, { keyId, key, claims });
};

/**
 * The claims of a sealed token whose MAC holds under a key of the ring, else null: a
 * forged, altered or truncated token, or one sealed under a key the ring no longer has.
 * The claims are frozen: a token checked once may answer many requests with the same object.
 */
export const unseal = async (body: string, keyring: TokenKeyring): Promise<Readonly<TokenClaims> | null> => {
  const known = verified.get(body);
  if (known) {
    if ((await keyring.verifyingKey(known.keyId)) === known.key) return known.claims;
    verified.delete(body);
  }
  const parsed = parse(body);
  if (!parsed) return null;
  const key = await keyring.verifyingKey(parsed.keyId);
  if (!key || !timingSafeEqual(mac(key, parsed.signed), parsed.tag)) return null;
  const own = ownGrant(parsed.claims.kind, body);
  const claims = Object.freeze(own ? Object.assign({}, parsed.claims, { grantId: own.id, grantKey: own.key }) : parsed.claims);
  keepVerified(body, parsed.keyId, key, claims);
  return claims;
};
