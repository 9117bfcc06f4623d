import type { Context } from 'aws-lambda';
import type { Metrics } from '../metrics.js';
import { currentRequest, REQUEST_ID_HEADER } from '../request-scope.js';
import type { ApiMiddleware, HttpEvent } from './types.js';

/**
 * API Gateway's request id (the access log's `requestId`); the Lambda request id for an event
 * that has none (a hand-made test event). Never taken from a request header: a caller could
 * put anything there, and it goes into every log line.
 */
export const correlationId = (event: HttpEvent, context: Context): string =>
  event.requestContext?.requestId || context.awsRequestId;

/** `X-Request-Id` on every response, errors included: what an integrator quotes to support. */
export const requestIdHeader = (): ApiMiddleware => {
  const add: NonNullable<ApiMiddleware['after']> = async (request) => {
    const id = currentRequest()?.correlationId ?? correlationId(request.event, request.context);
    if (request.response) request.response.headers = { ...request.response.headers, [REQUEST_ID_HEADER]: id };
  };
  return { after: add, onError: add };
};

/** Writes the invocation's metrics once it has its answer, errors included (Powertools' logMetrics, for the port). */
export const flushMetrics = (deps: { metrics: Metrics }): ApiMiddleware => {
  const flush = async (): Promise<void> => deps.metrics.flush();
  return { after: flush, onError: flush };
};
