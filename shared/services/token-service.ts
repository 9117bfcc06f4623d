import type { ApiClient } from '../domain/clients.js';
import { grantIdOf } from '../domain/sealed-tokens.js';
import type { TokenResponse } from '../domain/tokens.js';
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
import { authenticateClient } from './client-auth.js';
import type { RequestState } from './request-state.js';

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
  revoked: boolean;
}

/**
 * The refresh token's facts, read beside the client check: a sealed one needs only its
 * grant's revocation mark; one of the stored format (earlier versions) needs its item.
 */
const refreshFacts = async (deps: Deps, refreshToken: string): Promise<RefreshFacts | null> => {
  const presented = await readToken(refreshToken, 'refresh', deps.tokenKeys);
  if (presented.format === 'invalid') return null;
  if (presented.format === 'sealed') {
    const { claims } = presented;
    return { ...claims, revoked: await deps.repo.isGrantRevoked(grantIdOf(refreshToken)) };
  }
  const record = await deps.repo.getToken(presented.tokenHash);
  return record?.kind === 'refresh' ? { ...record, revoked: false } : null;
};

const checkRefresh = (deps: Deps, facts: RefreshFacts | null, client: ApiClient): RefreshFacts => {
  if (!facts || facts.revoked || facts.clientId !== client.clientId) throw invalidRefresh(MESSAGES.invalidRefreshToken);
  if (isExpired(facts, deps.clock)) throw invalidRefresh(MESSAGES.expiredRefreshToken);
  if (facts.generation !== client.generation) throw invalidRefresh(MESSAGES.invalidatedRefreshToken);
  return facts;
};

/**
 * client_credentials: the client check and count (one conditional write), then a sealed
 * access and refresh token: nothing else is stored, so one round trip in all.
 */
const clientCredentials = async (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> => {
  const client = await authenticateClient(deps, request, state);
  const scope = scopeOrFail(client.scopes, request.scope);
  const refresh = await issueSealedToken('refresh', client, scope, null, deps.clock, deps.tokenKeys);
  // The access token names its grant, so revoking the refresh token (RFC 7009) ends it too.
  const access = await issueSealedToken('access', client, scope, grantIdOf(refresh.token), deps.clock, deps.tokenKeys);
  return tokenResponse(access.token, refresh.token, scope);
};

/** refresh_token: a new access token; the refresh token does not rotate and keeps its own expiry. */
const refreshTokenGrant = async (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> => {
  const refreshToken = request.refreshToken ?? '';
  // The client check and the token's facts are independent: one round trip side by side.
  const [client, facts] = await Promise.all([authenticateClient(deps, request, state), refreshFacts(deps, refreshToken)]);
  const refresh = checkRefresh(deps, facts, client);
  const scope = scopeOrFail(tokenScopes(refresh), request.scope);
  const access = await issueSealedToken('access', client, scope, grantIdOf(refreshToken), deps.clock, deps.tokenKeys);
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
