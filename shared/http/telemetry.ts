import type { Context } from 'aws-lambda';
import type { HttpEvent } from './types.js';

/**
 * API Gateway's request id (the access log's `requestId`); the Lambda request id for an event
 * that has none (a hand-made test event). Never taken from a request header: a caller could
 * put anything there, and it goes into every log line.
 */
export const correlationId = (event: HttpEvent, context: Context): string =>
  event.requestContext?.requestId || context.awsRequestId;
