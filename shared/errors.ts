import type { RateState } from './domain/rate-limit.js';

/**
 * An error the caller caused or may act on. Its `detail` is the whole public message;
 * anything else that is thrown becomes a 500 whose cause is only logged.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export const badRequest = (detail: string): ApiError => new ApiError(400, detail);

/** RFC 6750 asks for a challenge on every 401 of a bearer-protected resource. */
export const bearerChallenge = (detail: string, error?: 'invalid_token' | 'insufficient_scope'): Record<string, string> => ({
  'WWW-Authenticate': error
    ? `Bearer realm="knap", error="${error}", error_description="${detail.replace(/"/g, "'")}"`
    : 'Bearer realm="knap"',
});

export const MESSAGES = {
  invalidClient: 'Invalid client credentials',
  revokedClient: 'API client has been revoked',
  unsupportedGrant: "Unsupported grant_type. Use 'client_credentials' or 'refresh_token'.",
  missingBearer: 'Missing bearer token. Send Authorization: Bearer <access token>',
  malformedBearer: "Authorization header must be 'Bearer <access token>'",
  invalidAccessToken: 'Invalid access token',
  expiredAccessToken: 'Access token has expired',
  invalidatedAccessToken: 'Access token has been invalidated',
  invalidRefreshToken: 'Invalid refresh token',
  expiredRefreshToken: 'Refresh token has expired',
  invalidatedRefreshToken: 'Refresh token has been invalidated',
  rateLimited: 'Rate limit exceeded',
  internal: 'Internal server error',
  unavailable: 'The service is temporarily unavailable. Please retry.',
} as const;

export const rateLimited = (rate: RateState): ApiError =>
  new ApiError(429, `${MESSAGES.rateLimited}: ${rate.limit} requests per minute. Retry in ${rate.resetSeconds} s.`, {
    'Retry-After': String(rate.resetSeconds),
  });
