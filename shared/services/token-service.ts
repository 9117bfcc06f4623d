import { hashCredential, looksLike } from '../domain/credentials.js';
import type { TokenResponse } from '../domain/tokens.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  grantScope,
  isExpired,
  issueToken,
  type TokenRecord,
  type TokenRequest,
  tokenPrefix,
  tokenScopes,
} from '../domain/tokens.js';
import { ApiError, badRequest, MESSAGES } from '../errors.js';
import type { Deps } from '../runtime.js';
import { authenticateClient } from './client-auth.js';
import type { RequestState } from './request-state.js';

const invalidRefresh = (detail: string): ApiError => new ApiError(401, detail);

const scopeOrFail = (held: readonly string[], requested: string | undefined): string => {
  const scope = grantScope(held, requested);
  if (scope === null) throw badRequest(`Invalid scope "${requested}". This client may request: ${held.join(' ')}`);
  return scope;
};

const checkRefreshToken = (deps: Deps, record: TokenRecord | null, client: { clientId: string; generation: number }) => {
  if (record?.kind !== 'refresh' || record.clientId !== client.clientId) {
    throw invalidRefresh(MESSAGES.invalidRefreshToken);
  }
  if (isExpired(record, deps.clock)) throw invalidRefresh(MESSAGES.expiredRefreshToken);
  if (record.generation !== client.generation) throw invalidRefresh(MESSAGES.invalidatedRefreshToken);
  return record;
};

/** client_credentials: a new access and refresh token, stored together in one batch write. */
const clientCredentials = async (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> => {
  const client = await authenticateClient(deps, request, state);
  const scope = scopeOrFail(client.scopes, request.scope);
  const access = issueToken('access', client, scope, deps.clock);
  const refresh = issueToken('refresh', client, scope, deps.clock);
  // The refresh token names its access tokens, so revoking it (RFC 7009) ends them too.
  await deps.repo.putTokens([access.record, { ...refresh.record, accessHashes: [access.record.tokenHash] }]);
  return tokenResponse(access.token, refresh.token, scope);
};

/** refresh_token: a new access token; the refresh token does not rotate and keeps its own expiry. */
const refreshTokenGrant = async (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> => {
  const refreshToken = request.refreshToken ?? '';
  const wellFormed = looksLike(refreshToken, tokenPrefix('refresh'));
  // The client check and the token read are independent: run them side by side.
  const [client, record] = await Promise.all([
    authenticateClient(deps, request, state),
    wellFormed ? deps.repo.getToken(hashCredential(refreshToken)) : Promise.resolve(null),
  ]);
  const refresh = checkRefreshToken(deps, record, client);
  const scope = scopeOrFail(tokenScopes(refresh), request.scope);
  const access = issueToken('access', client, scope, deps.clock);
  await Promise.all([
    deps.repo.putTokens([access.record]),
    deps.repo.addAccessToRefresh(refresh.tokenHash, access.record.tokenHash),
  ]);
  return tokenResponse(access.token, refreshToken, scope);
};

const tokenResponse = (accessToken: string, refreshToken: string, scope: string): TokenResponse => ({
  access_token: accessToken,
  token_type: 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
  refresh_token: refreshToken,
  scope,
});

export const grantTokens = (deps: Deps, request: TokenRequest, state: RequestState): Promise<TokenResponse> =>
  request.grantType === 'client_credentials' ? clientCredentials(deps, request, state) : refreshTokenGrant(deps, request, state);
