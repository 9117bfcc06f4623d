import { ApiError, MESSAGES } from '../errors.js';
import type { Log } from '../runtime.js';
import { problem } from './responses.js';
import type { ApiMiddleware } from './types.js';

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

/**
 * Every error becomes `{"detail": "..."}`. Caller mistakes keep their status; anything
 * unexpected is logged (never the request body or headers, which hold secrets) and is a 500.
 */
export const errorHandler = (log: Log): ApiMiddleware => ({
  onError: async (request) => {
    const { error } = request;
    if (error instanceof ApiError) {
      request.response = problem(error.status, error.detail, error.headers);
      return;
    }
    const transient = isTransient(error);
    log.error(transient ? 'DynamoDB unavailable' : 'Unhandled error', {
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
      route: request.event.routeKey,
      requestId: request.event.requestContext?.requestId,
    });
    request.response = transient ? problem(503, MESSAGES.unavailable, { 'Retry-After': '1' }) : problem(500, MESSAGES.internal);
  },
});
