/**
 * Token revocation (RFC 7009) and introspection (RFC 7662). Both authenticate the client as
 * the token endpoint does and read the token beside it, one round trip deep; neither ever
 * tells a client anything about another client's token.
 */
import { hashCredential } from '../domain/credentials.js';
import { isExpired, type TokenOperation, type TokenRecord } from '../domain/tokens.js';
import type { Deps } from '../runtime.js';
import { authenticateClient } from './client-auth.js';
import type { RequestState } from './request-state.js';

/** Tokens are base64url behind a prefix; anything else cannot be one of ours and is not looked up. */
const TOKEN_SHAPE = /^knap_(at|rt)_[A-Za-z0-9_-]{1,200}$/;

/** The client, and the token if it is this client's: read side by side. */
const clientAndOwnToken = async (deps: Deps, request: TokenOperation, state: RequestState) => {
  const [client, record] = await Promise.all([
    authenticateClient(deps, request, state),
    TOKEN_SHAPE.test(request.token) ? deps.repo.getToken(hashCredential(request.token)) : Promise.resolve(null),
  ]);
  return { client, record: record?.clientId === client.clientId ? record : null };
};

/**
 * Revokes a token of the calling client: an access token is deleted; a refresh token is
 * deleted with every access token issued through it. Unknown tokens, and other clients'
 * tokens, are left alone with the same answer (RFC 7009 section 2.2).
 */
export const revokeToken = async (deps: Deps, request: TokenOperation, state: RequestState): Promise<void> => {
  const { record } = await clientAndOwnToken(deps, request, state);
  if (!record) return;
  await deps.repo.deleteTokens([record.tokenHash, ...(record.kind === 'refresh' ? (record.accessHashes ?? []) : [])]);
};

export type Introspection =
  | { active: false }
  | { active: true; scope: string; client_id: string; token_type: 'Bearer'; exp: number; iat: number };

/** Live: this client's, not expired, and issued under the client's current secret generation. */
const isLive = (deps: Deps, record: TokenRecord, generation: number): boolean =>
  !isExpired(record, deps.clock) && record.generation === generation;

export const introspectToken = async (deps: Deps, request: TokenOperation, state: RequestState): Promise<Introspection> => {
  const { client, record } = await clientAndOwnToken(deps, request, state);
  if (!record || !isLive(deps, record, client.generation)) return { active: false };
  return {
    active: true,
    scope: record.scope,
    client_id: record.clientId,
    token_type: 'Bearer',
    exp: record.expiresAt,
    iat: record.issuedAt,
  };
};
