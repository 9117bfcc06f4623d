import * as v from 'valibot';
import { type Clock, epochSeconds } from './clock.js';
import { hashCredential, newSecret, PREFIX } from './credentials.js';

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
  refreshToken?: string;
  scope?: string;
}

/** A token as stored: only its hash, never the token itself. */
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

/** A validated revocation (RFC 7009) or introspection (RFC 7662) request. */
export interface TokenOperation {
  clientId: string;
  clientSecret: string;
  token: string;
}

/** The token endpoint's answer (RFC 6749 section 5.1). */
export const TokenResponseSchema = v.object({
  access_token: v.pipe(v.string(), v.startsWith('knap_at_')),
  token_type: v.literal('Bearer'),
  expires_in: v.literal(3600),
  refresh_token: v.pipe(v.string(), v.startsWith('knap_rt_')),
  scope: v.pipe(v.string(), v.description('Space-separated scopes granted')),
});
export type TokenResponse = v.InferOutput<typeof TokenResponseSchema>;

export interface IssuedToken {
  token: string;
  record: TokenRecord;
}

const TTL: Record<TokenKind, number> = { access: ACCESS_TOKEN_TTL_SECONDS, refresh: REFRESH_TOKEN_TTL_SECONDS };
const TOKEN_PREFIX: Record<TokenKind, string> = { access: PREFIX.accessToken, refresh: PREFIX.refreshToken };

export const issueToken = (
  kind: TokenKind,
  owner: { clientId: string; generation: number },
  scope: string,
  clock: Clock,
): IssuedToken => {
  const token = newSecret(TOKEN_PREFIX[kind]);
  const issuedAt = epochSeconds(clock.now());
  return {
    token,
    record: {
      tokenHash: hashCredential(token),
      kind,
      clientId: owner.clientId,
      generation: owner.generation,
      scope,
      issuedAt,
      expiresAt: issuedAt + TTL[kind],
    },
  };
};

export const tokenPrefix = (kind: TokenKind): string => TOKEN_PREFIX[kind];

/** The scopes a token carries (stored space-separated, as OAuth writes them). */
export const tokenScopes = (record: Pick<TokenRecord, 'scope'>): string[] => record.scope.split(' ').filter(Boolean);

export const isExpired = (record: TokenRecord, clock: Clock): boolean => epochSeconds(clock.now()) >= record.expiresAt;

/** Scopes a request may narrow to: a subset of what the client holds. Returns null when it asks for more. */
export const grantScope = (held: readonly string[], requested: string | undefined): string | null => {
  if (requested === undefined || requested.trim() === '') return held.join(' ');
  const asked = [...new Set(requested.trim().split(/\s+/))];
  return asked.every((scope) => held.includes(scope)) ? asked.join(' ') : null;
};
