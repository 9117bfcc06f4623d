import { ApiError, MESSAGES, bearerChallenge, rateLimited } from '../errors.js';
import type { MeterOutcome } from './meter.js';
import type { RequestState } from './request-state.js';

/**
 * Turns a refused metering into the API error, and records the rate state whenever
 * the client is known so the response still carries the RateLimit-* headers.
 */
export const refusal = (
  outcome: Exclude<MeterOutcome, { kind: 'ok' }>,
  state: RequestState,
  messages: { mismatch: string; unknown: string },
  challenge: boolean,
): ApiError => {
  const unauthorized = (detail: string): ApiError =>
    new ApiError(401, detail, challenge ? bearerChallenge(detail, 'invalid_token') : {});
  switch (outcome.kind) {
    case 'limited':
      state.rate = outcome.rate;
      return rateLimited(outcome.rate);
    case 'revoked':
      return unauthorized(MESSAGES.revokedClient);
    case 'mismatch':
      return unauthorized(messages.mismatch);
    case 'unknown':
      return unauthorized(messages.unknown);
  }
};
