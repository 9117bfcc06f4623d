import type { ApiClient } from '../domain/clients.js';
import { scopesWithin } from '../domain/scopes.js';
import { grantIdOf } from '../domain/sealed-tokens.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  grantScope,
  isExpired,
  issueSealedToken,
  readToken,
  type TokenRequest,
  tokenScopes,
} from '../domain/tokens.js';
import { ApiError, badRequest, MESSAGES } from '../errors.js';
import { METRIC } from '../metrics.js';
import type { Deps } from '../runtime.js';
import type { TokenResponse } from '../schemas/responses.js';
import { authenticateClient } from './client-auth.js';
import type { RequestState } from './request-state.js';
import { standsInTable, storedTokensAccepted } from './token-standing.js';

const invalidRefresh = (detail: string): ApiError => new ApiError(401, detail);

const scopeOrFail = (held: readonly string[], requested: string | undefined): string => {
  const scope = grantScope(held, requested);
  if (scope === null) throw badRequest(`Invalid scope "${requested}". This client may request: ${held.join(' ')}`);
  return scope;
};

/** What a refresh grant needs to know of the refresh token it was given. */
interface RefreshFacts {
  clientId: string;
  generation: number;
  scope: string;
  expiresAt: number;
  /** The grant its access tokens name. */
  grantId: string;
  /** Revoked, or its grant item gone. */
  ended: boolean;
}

/**
 * The refresh token's facts, read beside the client check: a sealed one from itself and its
 * grant's standing in the table; one of the stored format (earlier versions) from its item.
 */
const refreshFacts = async (deps: Deps, refreshToken: string): Promise<RefreshFacts | null> => {
  const presented = await readToken(refreshToken, 'refresh', deps.tokenKeys, storedTokensAccepted(deps));
  if (presented.format === 'invalid') return null;
  if (presented.format === 'sealed') {
    const { claims } = presented;
    if (!claims.grantId) return null;
    // Object.assign, not a spread then new keys (slow on Node.js 20).
    return Object.assign({}, claims, { grantId: claims.grantId, ended: !(await standsInTable(deps.repo, claims)) });
  }
  const record = await deps.repo.getToken(presented.tokenHash);
  return record?.kind === 'refresh' ? Object.assign({}, record, { grantId: grantIdOf(refreshToken), ended: false }) : null;
};

const checkRefresh = (deps: Deps, facts: RefreshFacts | null, client: ApiClient): RefreshFacts => {
  if (!facts || facts.clientId !== client.clientId) throw invalidRefresh(MESSAGES.invalidRefreshToken);
  // Expiry first: a grant item may be gone because it expired, which the caller should hear.
  if (isExpired(facts, deps.clock)) throw invalidRefresh(MESSAGES.expiredRefreshToken);
  if (facts.ended) throw invalidRefresh(MESSAGES.invalidRefreshToken);
  if (facts.generation !== client.generation) throw invalidRefresh(MESSAGES.invalidatedRefreshToken);
  return facts;
};

/**
 * client_credentials: the client check and count (one conditional write), then the grant item
 * of the new refresh token. In that order, since there are no transactions: a failure between
 * the two leaves a counted request and no grant, never an uncounted request nor a grant the
 * client was never given. Two items written, two round trips.
 */
const clientCredentials = async (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> => {
  const client = await authenticateClient(deps, request, state);
  const scope = scopeOrFail(client.scopes, request.scope);
  const refresh = await issueSealedToken('refresh', client, scope, null, deps.clock, deps.tokenKeys);
  const { clientId, generation, issuedAt, expiresAt } = refresh.claims;
  const grantId = refresh.claims.grantId as string;
  const grantKey = refresh.claims.grantKey as string;
  await deps.repo.putGrant({ grantKey, grantId, clientId, generation, scope, issuedAt, expiresAt });
  // The access token names its grant, so revoking the refresh token (RFC 7009) ends it too.
  const access = await issueSealedToken('access', client, scope, grantId, deps.clock, deps.tokenKeys);
  return tokenResponse(access.token, refresh.token, scope);
};

/** refresh_token: a new access token; the refresh token does not rotate and keeps its own expiry. */
const refreshTokenGrant = async (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> => {
  const refreshToken = request.refreshToken ?? '';
  // The client check and the token's facts are independent: one round trip side by side.
  const facts = refreshFacts(deps, refreshToken);
  facts.catch(() => {}); // awaited below; the client check may refuse first
  const client = await authenticateClient(deps, request, state);
  const refresh = checkRefresh(deps, await facts, client);
  // What the client holds today bounds what its refresh tokens still grant.
  const scope = scopeOrFail(scopesWithin(tokenScopes(refresh), client.scopes), request.scope);
  const access = await issueSealedToken('access', client, scope, refresh.grantId, deps.clock, deps.tokenKeys);
  return tokenResponse(access.token, refreshToken, scope);
};

const tokenResponse = (accessToken: string, refreshToken: string, scope: string): TokenResponse => ({
  access_token: accessToken,
  token_type: 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
  refresh_token: refreshToken,
  scope,
});

export const grantTokens = async (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> => {
  const response =
    request.grantType === 'client_credentials'
      ? await clientCredentials(deps, request, state)
      : await refreshTokenGrant(deps, request, state);
  deps.metrics.count(METRIC.tokensIssued, { grant_type: request.grantType });
  return response;
};
