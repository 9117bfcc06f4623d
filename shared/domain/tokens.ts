import { type Clock, epochSeconds } from './clock.js';
import { hashCredential, newSecret, PREFIX } from './credentials.js';
import { canonicalScopes } from './scopes.js';
import {
  type ClaimsToSeal,
  LEGACY_TOKEN_LENGTH,
  MAX_SEALED_LENGTH,
  SEALED_VERSION,
  seal,
  type TokenClaims,
  type TokenKeyring,
  unseal,
} from './sealed-tokens.js';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export type TokenKind = 'access' | 'refresh';

export const GRANT_TYPES = ['client_credentials', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** A validated request to the token endpoint. */
export interface TokenRequest {
  grantType: GrantType;
  clientId: string;
  clientSecret: string;
  /** private_key_jwt, in place of the secret. */
  clientAssertion?: string;
  /** The audiences an assertion may name: this endpoint's URL, the token endpoint's, the issuer. */
  assertionAudiences?: string[];
  refreshToken?: string;
  scope?: string;
}

/**
 * A token as stored by versions before sealed tokens: only its hash, never the token. Such
 * refresh tokens live 30 days, so they are still read (see readToken).
 */
export interface TokenRecord {
  tokenHash: string;
  kind: TokenKind;
  clientId: string;
  /** The client's generation at issue; a regenerate or revoke makes it stale. */
  generation: number;
  scope: string;
  issuedAt: number;
  /** Epoch seconds; also the table's TTL attribute, but always checked in code. */
  expiresAt: number;
  /**
   * Refresh tokens: the hashes of the access tokens issued through them, so that revoking the
   * refresh token (RFC 7009) ends them too. Tokens issued before revocation existed have none.
   */
  accessHashes?: string[];
}

/**
 * A refresh token's grant as the table keeps it (the seed's "hashed tokens"): named by the
 * token's SHA-256, never holding the token. Made by the client_credentials grant, read by the
 * refresh grant, deleted by revocation; a secret change or a revoked client ends it through
 * `generation`, and the table's TTL removes it once it has expired.
 */
export interface GrantRecord {
  /** The refresh token's SHA-256 (hex). */
  grantKey: string;
  /** The id its access tokens carry (grantIdOf: the first 12 bytes of the same hash). */
  grantId: string;
  clientId: string;
  generation: number;
  scope: string;
  issuedAt: number;
  expiresAt: number;
}

/** What the table says of a presented token, in one read: its grant (when asked for) and whether it is revoked. */
export interface TokenStanding {
  grant: GrantRecord | null;
  /** Any of the ids asked about (the token's, its grant's) is revoked. */
  revoked: boolean;
}

/** A validated revocation (RFC 7009) or introspection (RFC 7662) request. */
export interface TokenOperation {
  clientId: string;
  clientSecret: string;
  clientAssertion?: string;
  assertionAudiences?: string[];
  token: string;
}

export interface IssuedToken {
  token: string;
  record: TokenRecord;
}

const TTL: Record<TokenKind, number> = { access: ACCESS_TOKEN_TTL_SECONDS, refresh: REFRESH_TOKEN_TTL_SECONDS };
const TOKEN_PREFIX: Record<TokenKind, string> = { access: PREFIX.accessToken, refresh: PREFIX.refreshToken };

/** What every token says of its issue, whatever its format: living its kind's TTL from now. */
const issuedNow = (kind: TokenKind, owner: { clientId: string; generation: number }, scope: string, clock: Clock) => {
  const issuedAt = epochSeconds(clock.now());
  return { kind, clientId: owner.clientId, generation: owner.generation, scope, issuedAt, expiresAt: issuedAt + TTL[kind] };
};

/** Issues a token in the stored format of earlier versions; kept for tests of the old path. */
export const issueStoredToken = (
  kind: TokenKind,
  owner: { clientId: string; generation: number },
  scope: string,
  clock: Clock,
): IssuedToken => {
  const token = newSecret(TOKEN_PREFIX[kind]);
  return { token, record: { tokenHash: hashCredential(token), ...issuedNow(kind, owner, scope, clock) } };
};

export const tokenPrefix = (kind: TokenKind): string => TOKEN_PREFIX[kind];

/** The scopes a token carries (stored space-separated, as OAuth writes them). */
export const tokenScopes = (record: Pick<TokenRecord, 'scope'>): string[] =>
  canonicalScopes(record.scope.split(' ').filter(Boolean));

export const isExpired = (record: { expiresAt: number }, clock: Clock): boolean => epochSeconds(clock.now()) >= record.expiresAt;

/** Scopes a request may narrow to: a subset of what the client holds. Returns null when it asks for more. */
export const grantScope = (held: readonly string[], requested: string | undefined): string | null => {
  const holds = canonicalScopes(held);
  if (requested === undefined || requested.trim() === '') return holds.join(' ');
  // The old names are aliases: asked for, they are granted under the new names.
  const asked = canonicalScopes(requested.trim().split(/\s+/));
  return asked.every((scope) => holds.includes(scope)) ? asked.join(' ') : null;
};

/** Longest token the API will look at: the longest sealed token (they grow with the client id and scope). */
export const MAX_TOKEN_LENGTH = PREFIX.accessToken.length + MAX_SEALED_LENGTH;

/** A token as presented: sealed (claims checked), of the stored format (look it up), or not ours. */
export type PresentedToken =
  | { format: 'sealed'; claims: TokenClaims }
  | { format: 'stored'; tokenHash: string }
  | { format: 'invalid' };

const INVALID: PresentedToken = { format: 'invalid' };

/**
 * Whether tokens of the stored format (issued before sealing) are still looked up: until
 * `storedTokensUntil` (epoch seconds), a deployment's setting. Unset, they are refused with
 * no I/O, so a token merely shaped like one costs nobody a read.
 */
export const acceptsStoredTokens = (storedTokensUntil: number | undefined, clock: Clock): boolean =>
  storedTokensUntil !== undefined && epochSeconds(clock.now()) < storedTokensUntil;

/**
 * Tells what a presented token is, with no I/O: a sealed token is checked by its MAC here;
 * one of the exact shape of the stored format (43 characters of base64url after the prefix)
 * is for the caller to look up, when `stored` allows; anything else is refused.
 */
export const readToken = async (
  token: string,
  kind: TokenKind,
  keyring: TokenKeyring,
  stored = false,
): Promise<PresentedToken> => {
  const prefix = TOKEN_PREFIX[kind];
  if (!token.startsWith(prefix) || token.length > MAX_TOKEN_LENGTH) return INVALID;
  const body = token.slice(prefix.length);
  if (body.length === LEGACY_TOKEN_LENGTH) {
    return stored && /^[A-Za-z0-9_-]+$/.test(body) ? { format: 'stored', tokenHash: hashCredential(token) } : INVALID;
  }
  const claims = await unseal(body, keyring);
  return claims?.kind === kind ? { format: 'sealed', claims } : INVALID;
};

/** Seals a new token of `kind` for the client, living the kind's TTL from now. */
export const issueSealedToken = async (
  kind: TokenKind,
  owner: { clientId: string; generation: number },
  scope: string,
  grantId: string | null,
  clock: Clock,
  keyring: TokenKeyring,
): Promise<{ token: string; claims: TokenClaims }> => {
  // Plain keys before each spread: a literal that starts with one is slow on Node.js 20.
  const claims: ClaimsToSeal = { grantId, ...issuedNow(kind, owner, scope, clock) };
  const sealed = seal(claims, await keyring.signingKey());
  return {
    token: TOKEN_PREFIX[kind] + sealed.body,
    claims: {
      version: SEALED_VERSION,
      ...claims,
      tokenId: sealed.tokenId,
      grantId: sealed.grantId,
      grantKey: sealed.grantKey,
    },
  };
};
