import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RequestState } from '../services/request-state.js';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** The Lambda context plus what our middlewares learn about the request. */
export interface ApiContext extends Context {
  requestState: RequestState;
  /** What the route's `beside` read started next to authentication (see apiHandler), if anything. */
  besideAuth?: unknown;
}

export type ApiMiddleware = MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext>;

/** What middy hands each middleware: the event, the context, the response so far and any error. */
export type ApiRequestOf = Request<HttpEvent, HttpResult, Error, ApiContext>;
