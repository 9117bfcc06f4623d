import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RequestScope } from '../domain/request-scope.js';
import type { Deps } from '../runtime.js';
import type { RequestState } from '../services/request-state.js';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** The Lambda context plus what our middlewares learn about the request. */
export interface ApiContext extends Context {
  requestState: RequestState;
  /** What the route's `beside` read started next to authentication (see apiHandler), if anything. */
  besideAuth?: unknown;
  /** The request's scope: its correlation id, deadline and (under `npm start`) round-trip counter. */
  scope: RequestScope & { correlationId: string };
  /** The function's deps bound to this request (shared/scoped-deps.ts): what middlewares and the handler use. */
  deps: Deps;
  /** When the answer must be on its way (epoch ms): a request still running then is answered with a 503. */
  answerBy: number;
}

export type ApiMiddleware = MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext>;

/** What middy hands each middleware: the event, the context, the response so far and any error. */
export type ApiRequestOf = Request<HttpEvent, HttpResult, Error, ApiContext>;

/** What a check before the handler sees: the event (which parsing may replace parts of) and the context. */
export interface StepRequest {
  event: HttpEvent;
  context: ApiContext;
}

/** One of the checks apiHandler runs before the handler (see apiHandler). */
export type RequestStep = (request: StepRequest) => void | Promise<void>;
