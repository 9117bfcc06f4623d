/**
 * Token revocation (RFC 7009) and introspection (RFC 7662). Both authenticate the client as
 * the token endpoint does and learn the token beside it (a sealed token from itself, or its
 * stored item or grant mark, in the same round trip); neither ever tells a client anything
 * about another client's token.
 */
import { type ApiClient, isRevoked, lapsedRevocations } from '../domain/clients.js';
import { epochSeconds } from '../domain/clock.js';
import { grantIdOf, type TokenClaims } from '../domain/sealed-tokens.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  isExpired,
  readToken,
  type TokenKind,
  type TokenOperation,
  type TokenRecord,
  tokenPrefix,
} from '../domain/tokens.js';
import type { Deps } from '../runtime.js';
import { authenticateClient } from './client-auth.js';
import type { RequestState } from './request-state.js';

/** A token as the client presented it, once its kind and format are known. */
type Known =
  | { kind: TokenKind; format: 'sealed'; token: string; claims: TokenClaims; grantRevoked: boolean }
  | { kind: TokenKind; format: 'stored'; token: string; record: TokenRecord };

/**
 * What the table knows of the token, read beside the client check; null when nothing is ours
 * to know. Either kind may be presented (the hint is only a hint, RFC 7009 section 2.1).
 */
const lookUp = async (deps: Deps, token: string): Promise<Known | null> => {
  const kind: TokenKind = token.startsWith(tokenPrefix('refresh')) ? 'refresh' : 'access';
  const read = await readToken(token, kind, deps.tokenKeys);
  if (read.format === 'invalid') return null;
  if (read.format === 'stored') {
    const record = await deps.repo.getToken(read.tokenHash);
    return record?.kind === kind ? { kind, format: 'stored', token, record } : null;
  }
  const grantRevoked = kind === 'refresh' ? await deps.repo.isGrantRevoked(grantIdOf(token)) : false;
  return { kind, format: 'sealed', token, claims: read.claims, grantRevoked };
};

/** The client, and the token if it is this client's: one round trip, side by side. */
const clientAndOwnToken = async (deps: Deps, request: TokenOperation, state: RequestState) => {
  const [client, known] = await Promise.all([authenticateClient(deps, request, state), lookUp(deps, request.token)]);
  const owner = known?.format === 'sealed' ? known.claims.clientId : known?.record.clientId;
  return { client, known: owner === client.clientId ? known : null };
};

/**
 * Revokes a token of the calling client. A sealed access token is marked revoked on the
 * client until it would expire; a refresh token gets a revoked mark for the rest of its life,
 * and its grant is marked on the client for as long as its access tokens may live. Tokens of
 * the stored format are deleted, with the access tokens stored under a refresh token. Unknown
 * tokens, and other clients' tokens, are left alone with the same answer (RFC 7009 section 2.2).
 */
export const revokeToken = async (deps: Deps, request: TokenOperation, state: RequestState): Promise<void> => {
  const { client, known } = await clientAndOwnToken(deps, request, state);
  if (!known) return;
  const now = epochSeconds(deps.clock.now());
  const writes: Promise<void>[] = [];
  const onClient: Record<string, number> = {};
  if (known.kind === 'access') {
    if (known.format === 'sealed') onClient[known.claims.tokenId] = known.claims.expiresAt;
    else writes.push(deps.repo.deleteTokens([known.record.tokenHash]));
  } else {
    const grantId = grantIdOf(known.token);
    // Sealed access tokens of this grant: none outlives the last one issued before now.
    onClient[grantId] = now + ACCESS_TOKEN_TTL_SECONDS;
    if (known.format === 'sealed') writes.push(deps.repo.putRevokedGrant(grantId, known.claims.expiresAt));
    else writes.push(deps.repo.deleteTokens([known.record.tokenHash, ...(known.record.accessHashes ?? [])]));
  }
  writes.push(deps.repo.revokeOnClient(client.clientId, onClient, lapsedRevocations(client, now)));
  await Promise.all(writes);
};

export type Introspection =
  | { active: false }
  | { active: true; scope: string; client_id: string; token_type: 'Bearer'; exp: number; iat: number };

/** Live: not expired, issued under the client's current secret generation, and not revoked. */
const isLive = (deps: Deps, known: Known, client: ApiClient): boolean => {
  const facts = known.format === 'sealed' ? known.claims : known.record;
  if (isExpired(facts, deps.clock) || facts.generation !== client.generation) return false;
  if (known.format === 'stored') return true;
  const ids = [known.claims.tokenId, known.claims.grantId ?? ''].filter(Boolean);
  return !known.grantRevoked && !isRevoked(client, ids, epochSeconds(deps.clock.now()));
};

export const introspectToken = async (deps: Deps, request: TokenOperation, state: RequestState): Promise<Introspection> => {
  const { client, known } = await clientAndOwnToken(deps, request, state);
  if (!known || !isLive(deps, known, client)) return { active: false };
  const facts = known.format === 'sealed' ? known.claims : known.record;
  return {
    active: true,
    scope: facts.scope,
    client_id: facts.clientId,
    token_type: 'Bearer',
    exp: facts.expiresAt,
    iat: facts.issuedAt,
  };
};
