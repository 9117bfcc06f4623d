import { QuotaExceededError } from '../domain/quotas.js';
import { ApiError, MESSAGES } from '../errors.js';
import { METRIC } from '../metrics.js';
import type { Deps } from '../runtime.js';
import { problem } from './responses.js';
import type { ApiMiddleware } from './types.js';

/**
 * A request still running when its answer was due (apiHandler's answer-by time), whatever it
 * waited on: a TimeoutError, so a 503 with Retry-After.
 */
export class AnswerOverdue extends Error {
  override readonly name = 'TimeoutError';
  constructor() {
    super('The request did not finish before its answer was due');
  }
}

const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Network failures the SDK passes on, sometimes only as text ("AWS SDK error wrapper for TimeoutError: socket hang up"). */
const NETWORK_TEXT = /socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|TimeoutError/;

/**
 * DynamoDB throttling, a server fault, a timeout or a lost connection: worth a retry by
 * the caller. Duck-typed: errors from Node's own modules need not be `instanceof Error` here.
 */
const isTransient = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, $fault, message } = error as { name?: string; code?: string; $fault?: string; message?: string };
  return (
    TRANSIENT_NAMES.has(name ?? '') || $fault === 'server' || NETWORK_CODES.has(code ?? '') || NETWORK_TEXT.test(message ?? '')
  );
};

/** The public detail of each 401, as the `reason` dimension of the Unauthorized metric. */
const UNAUTHORIZED_REASONS = new Map<string, string>([
  [MESSAGES.invalidClient, 'invalid_client'],
  [MESSAGES.revokedClient, 'revoked_client'],
  [MESSAGES.missingBearer, 'missing_bearer'],
  [MESSAGES.malformedBearer, 'malformed_bearer'],
  [MESSAGES.invalidAccessToken, 'invalid_access_token'],
  [MESSAGES.expiredAccessToken, 'expired_access_token'],
  [MESSAGES.invalidatedAccessToken, 'invalidated_access_token'],
  [MESSAGES.invalidRefreshToken, 'invalid_refresh_token'],
  [MESSAGES.expiredRefreshToken, 'expired_refresh_token'],
  [MESSAGES.invalidatedRefreshToken, 'invalidated_refresh_token'],
]);

/** A reason from a fixed list (a dimension value is a metric of its own: never free text). */
export const unauthorizedReason = (detail: string): string => UNAUTHORIZED_REASONS.get(detail) ?? 'other';

/** 401s by reason and 429s, counted where every refusal of every route passes. */
const countRefusal = (deps: Pick<Deps, 'metrics'>, error: ApiError): void => {
  if (error.status === 401) deps.metrics.count(METRIC.unauthorized, { reason: unauthorizedReason(error.detail) });
  else if (error.status === 429) deps.metrics.count(METRIC.rateLimited);
};

/**
 * Every error becomes `{"detail": "..."}`. Caller mistakes keep their status; anything
 * unexpected is logged (never the request body or headers, which hold secrets) and is a 500.
 */
export const errorHandler = (): ApiMiddleware => ({
  onError: async (request) => {
    const { deps } = request.context;
    const { error } = request;
    if (error instanceof ApiError) {
      countRefusal(deps, error);
      request.response = problem(error.status, error.detail, error.headers);
      return;
    }
    // A quota, not a rate: 409 (429 is for rates only).
    if (error instanceof QuotaExceededError) {
      const refusal = new ApiError(409, error.message);
      countRefusal(deps, refusal);
      request.response = problem(refusal.status, refusal.detail, refusal.headers);
      return;
    }
    const transient = isTransient(error);
    // The request's deps log with its correlation id (see shared/logger.ts).
    deps.log.error(error instanceof AnswerOverdue ? 'Answer overdue' : transient ? 'DynamoDB unavailable' : 'Unhandled error', {
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
      route: request.event.routeKey,
    });
    request.response = transient ? problem(503, MESSAGES.unavailable, { 'Retry-After': '1' }) : problem(500, MESSAGES.internal);
  },
});
