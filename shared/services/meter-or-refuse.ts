import type { ApiClient } from '../domain/clients.js';
import type { RequestGuard } from '../domain/repository.js';
import { ApiError, bearerChallenge, MESSAGES, rateLimited } from '../errors.js';
import type { Deps } from '../runtime.js';
import { type MeterOutcome, meterRequest } from './meter.js';
import type { RequestState } from './request-state.js';

export interface RefusalWording {
  /** The detail for a wrong secret or a stale token generation. */
  mismatch: string;
  /** The detail for an unknown client. */
  unknown: string;
  /** Bearer requests answer 401 with `WWW-Authenticate: Bearer`; token requests do not. */
  challenge: boolean;
}

/** Turns a refused metering into the API error. */
const refusal = (outcome: Exclude<MeterOutcome, { kind: 'ok' }>, wording: RefusalWording): ApiError => {
  const unauthorized = (detail: string): ApiError =>
    new ApiError(401, detail, wording.challenge ? bearerChallenge(detail, 'invalid_token') : {});
  switch (outcome.kind) {
    case 'limited':
      return rateLimited(outcome.rate);
    case 'revoked':
      return unauthorized(MESSAGES.revokedClient);
    case 'mismatch':
      return unauthorized(wording.mismatch);
    case 'unknown':
      return unauthorized(wording.unknown);
  }
};

/**
 * Authenticates and counts one request (see meterRequest), or throws the API error for
 * the refusal. Whenever the client is known within its window, the rate state is recorded
 * so the response carries the RateLimit-* headers, a 429 included.
 */
export const meterOrRefuse = async (
  deps: Deps,
  clientId: string,
  guard: RequestGuard,
  state: RequestState,
  wording: RefusalWording,
): Promise<ApiClient> => {
  const outcome = await meterRequest(deps, clientId, guard);
  if (outcome.kind === 'ok' || outcome.kind === 'limited') state.rate = outcome.rate;
  if (outcome.kind !== 'ok') throw refusal(outcome, wording);
  return outcome.client;
};
