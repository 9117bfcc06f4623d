import { hashCredential, looksLike } from '../domain/credentials.js';
import { isExpired, tokenPrefix, tokenScopes } from '../domain/tokens.js';
import { ApiError, bearerChallenge, MESSAGES } from '../errors.js';
import type { Deps } from '../runtime.js';
import { meterOrRefuse } from './meter-or-refuse.js';
import type { Caller, RequestState } from './request-state.js';

const unauthorized = (detail: string, withError = true): ApiError =>
  new ApiError(401, detail, bearerChallenge(detail, withError ? 'invalid_token' : undefined));

/** `Bearer <token>`, scheme case-insensitive (RFC 7235); anything else is refused. */
export const bearerToken = (authorization: string | undefined): string => {
  if (!authorization || authorization.trim() === '') throw unauthorized(MESSAGES.missingBearer, false);
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  if (!match?.[1]) throw unauthorized("Authorization header must be 'Bearer <access token>'");
  return match[1];
};

/**
 * Two round trips: read the token, then one conditional write on the client that checks it
 * is active and still on the token's generation, and counts the request.
 */
export const authenticateBearer = async (deps: Deps, authorization: string | undefined, state: RequestState): Promise<Caller> => {
  const token = bearerToken(authorization);
  // A refresh token (or anything not shaped like an access token) never reaches the table.
  if (!looksLike(token, tokenPrefix('access'))) throw unauthorized(MESSAGES.invalidAccessToken);
  const record = await deps.repo.getToken(hashCredential(token));
  if (record?.kind !== 'access') throw unauthorized(MESSAGES.invalidAccessToken);
  if (isExpired(record, deps.clock)) throw unauthorized(MESSAGES.expiredAccessToken);
  const client = await meterOrRefuse(deps, record.clientId, { generation: record.generation }, state, {
    mismatch: MESSAGES.invalidatedAccessToken,
    unknown: MESSAGES.invalidAccessToken,
    challenge: true,
  });
  const caller: Caller = { client, scopes: tokenScopes(record) };
  state.caller = caller;
  return caller;
};

export const requireScope = (caller: Caller, scope: string): void => {
  if (!caller.scopes.includes(scope)) {
    const detail = `This token lacks the scope "${scope}"`;
    throw new ApiError(403, detail, bearerChallenge(detail, 'insufficient_scope'));
  }
};
