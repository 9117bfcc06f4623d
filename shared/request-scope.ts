import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The correlation id of the request being handled, across its awaits: API Gateway's request
 * id (`requestContext.requestId`, what its access log records as `requestId`), returned to
 * the caller as `X-Request-Id` and added to every log line written on the request's behalf.
 * A store rather than a logger key: under `npm start` one process serves requests at once.
 */
export const requestScope = new AsyncLocalStorage<{ correlationId: string }>();

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The keys every log line of the current request carries (none outside a request). */
export const correlationKeys = (): { correlation_id: string } | undefined => {
  const scope = requestScope.getStore();
  return scope ? { correlation_id: scope.correlationId } : undefined;
};
