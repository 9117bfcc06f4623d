import { ApiError, bearerChallenge, MESSAGES } from '../errors.js';

/** A 401 with the Bearer challenge (RFC 6750); `invalid_token` unless no token was sent. */
export const unauthorized = (detail: string, withError = true): ApiError =>
  new ApiError(401, detail, bearerChallenge(detail, withError ? 'invalid_token' : undefined));

/**
 * `Bearer <token>`, scheme case-insensitive (RFC 7235); anything else is refused. A module of
 * its own: admin and report tokens are read from the same header, and their functions need
 * none of the API clients' token code.
 */
export const bearerToken = (authorization: string | undefined): string => {
  if (!authorization || authorization.trim() === '') throw unauthorized(MESSAGES.missingBearer, false);
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  if (!match?.[1]) throw unauthorized(MESSAGES.malformedBearer);
  return match[1];
};
