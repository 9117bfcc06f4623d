/**
 * Token revocation (RFC 7009) and introspection (RFC 7662). Both authenticate the client as
 * the token endpoint does and learn the token beside it (a sealed token from itself and its
 * standing in the table, or its stored item, in the same round trip); neither ever tells a
 * client anything about another client's token.
 */
import { type ApiClient, isRevoked } from '../domain/clients.js';
import { epochSeconds } from '../domain/clock.js';
import { scopesWithin } from '../domain/scopes.js';
import { grantIdOf, type TokenClaims } from '../domain/sealed-tokens.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  isExpired,
  readToken,
  type TokenKind,
  type TokenOperation,
  type TokenRecord,
  tokenPrefix,
  tokenScopes,
} from '../domain/tokens.js';
import type { Deps } from '../runtime.js';
import { authenticateClient } from './client-auth.js';
import type { RequestState } from './request-state.js';
import { revokeSealed, standsInTable, storedTokensAccepted } from './token-standing.js';

/** A token as the client presented it, once its kind and format are known. */
type Known =
  | { kind: TokenKind; format: 'sealed'; token: string; claims: TokenClaims; standing: boolean }
  | { kind: TokenKind; format: 'stored'; token: string; record: TokenRecord };

/**
 * What the table knows of the token, read beside the client check; null when nothing is ours
 * to know. Either kind may be presented (the hint is only a hint, RFC 7009 section 2.1).
 */
const lookUp = async (deps: Deps, token: string): Promise<Known | null> => {
  const kind: TokenKind = token.startsWith(tokenPrefix('refresh')) ? 'refresh' : 'access';
  const read = await readToken(token, kind, deps.tokenKeys, storedTokensAccepted(deps));
  if (read.format === 'invalid') return null;
  if (read.format === 'stored') {
    const record = await deps.repo.getToken(read.tokenHash);
    return record?.kind === kind ? { kind, format: 'stored', token, record } : null;
  }
  return { kind, format: 'sealed', token, claims: read.claims, standing: await standsInTable(deps.repo, read.claims) };
};

/** The client, and the token if it is this client's: one round trip, side by side. */
const clientAndOwnToken = async (deps: Deps, request: TokenOperation, state: RequestState) => {
  const lookup = lookUp(deps, request.token);
  lookup.catch(() => {}); // awaited below; the client check may refuse first
  const client = await authenticateClient(deps, request, state);
  const known = await lookup;
  const owner = known?.format === 'sealed' ? known.claims.clientId : known?.record.clientId;
  return { client, known: owner === client.clientId ? known : null };
};

/**
 * Revokes a token of the calling client (see revokeSealed); tokens of the stored format are
 * deleted, with the access tokens stored under a refresh token, and the sealed access tokens
 * its refresh grants issued are revoked by its grant id. Unknown tokens, tokens already ended
 * and other clients' tokens are left alone with the same answer (RFC 7009 section 2.2).
 */
export const revokeToken = async (deps: Deps, request: TokenOperation, state: RequestState): Promise<void> => {
  const { known } = await clientAndOwnToken(deps, request, state);
  if (!known) return;
  if (known.format === 'sealed') {
    if (known.standing) await revokeSealed(deps.repo, known.claims);
    return;
  }
  const { record } = known;
  if (record.kind === 'access') {
    await deps.repo.deleteTokens([record.tokenHash]);
    return;
  }
  const until = epochSeconds(deps.clock.now()) + ACCESS_TOKEN_TTL_SECONDS;
  await deps.repo.putRevocations({ [grantIdOf(known.token)]: until });
  await deps.repo.deleteTokens([record.tokenHash, ...(record.accessHashes ?? [])]);
};

export type Introspection =
  | { active: false }
  | { active: true; scope: string; client_id: string; token_type: 'Bearer'; exp: number; iat: number };

/** Live: not expired, issued under the client's current secret generation, and not revoked. */
const isLive = (deps: Deps, known: Known, client: ApiClient): boolean => {
  const facts = known.format === 'sealed' ? known.claims : known.record;
  if (isExpired(facts, deps.clock) || facts.generation !== client.generation) return false;
  if (known.format === 'stored') return true;
  // Tokens sealed by earlier versions may be revoked by a mark on the client item instead.
  const ids = [known.claims.tokenId, known.claims.grantId ?? ''].filter(Boolean);
  return known.standing && !isRevoked(client, ids, epochSeconds(deps.clock.now()));
};

export const introspectToken = async (deps: Deps, request: TokenOperation, state: RequestState): Promise<Introspection> => {
  const { client, known } = await clientAndOwnToken(deps, request, state);
  if (!known || !isLive(deps, known, client)) return { active: false };
  const facts = known.format === 'sealed' ? known.claims : known.record;
  return {
    active: true,
    // New names for tokens issued under the old ones; a narrowed client's tokens lost the rest.
    scope: scopesWithin(tokenScopes(facts), client.scopes).join(' '),
    client_id: facts.clientId,
    token_type: 'Bearer',
    exp: facts.expiresAt,
    iat: facts.issuedAt,
  };
};
