import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { Context } from 'aws-lambda';
import type { Deps } from '../runtime.js';
import type { RequestState } from '../services/request-state.js';
import { requestDeadline } from '../store/dynamo-client.js';
import { bearerAuth } from './bearer.js';
import { bodyLimit } from './body-limit.js';
import { errorHandler } from './error-handler.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import type { ApiContext, ApiMiddleware, HttpEvent, HttpResult } from './types.js';

export interface ApiHandlerOptions {
  /** How to parse the body; `none` leaves it as sent. */
  body: 'json' | 'form' | 'none';
  auth: 'bearer' | 'none';
  maxBodyBytes: number;
  /** Token responses must never be cached (RFC 6749 section 5.1), errors included. */
  noStore?: boolean;
}

export interface ApiRequest {
  event: HttpEvent;
  /** The parsed body (a JSON value or a form's fields), unvalidated. */
  body: unknown;
  state: RequestState;
}

/** Time kept back from the Lambda timeout to turn a DynamoDB stall into a 503 and send it. */
const RESPONSE_MARGIN_MS = 1_000;

const NO_STORE_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const noStore = (): ApiMiddleware => {
  const add: NonNullable<ApiMiddleware['after']> = async (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, ...NO_STORE_HEADERS };
  };
  return { after: add, onError: add };
};

/** A JSON API is forgiving about a missing Content-Type, but not about a wrong one. */
const assumeJson = (): ApiMiddleware => ({
  before: async (request) => {
    request.event.headers ??= {};
    const headers = request.event.headers;
    if (!headers['content-type'] && request.event.body) headers['content-type'] = 'application/json';
  },
});

const bodyParsers = (kind: ApiHandlerOptions['body']): ApiMiddleware[] => {
  switch (kind) {
    case 'json':
      return [assumeJson(), httpJsonBodyParser() as ApiMiddleware];
    case 'form':
      return [httpUrlencodeBodyParser() as unknown as ApiMiddleware];
    case 'none':
      return [];
  }
};

/**
 * The one middy chain every function uses: RateLimit headers and error mapping outermost,
 * then header normalization, body size, parsing and authentication, then the handler.
 */
export const apiHandler = (deps: Deps, options: ApiHandlerOptions, handle: (request: ApiRequest) => Promise<HttpResult>) => {
  const chain = middy<HttpEvent, HttpResult, Error, ApiContext>()
    .use(rateLimitHeaders())
    .use(options.noStore ? [noStore()] : [])
    .use(errorHandler(deps.log))
    .use(httpHeaderNormalizer() as unknown as ApiMiddleware)
    .use(bodyLimit(options.maxBodyBytes))
    .use(bodyParsers(options.body))
    .use(options.auth === 'bearer' ? [bearerAuth(deps)] : []);
  const lambda = chain.handler((event, context) => handle({ event, body: event.body as unknown, state: context.knap }));
  return (event: HttpEvent, context: Context): Promise<HttpResult> =>
    requestDeadline.run(Date.now() + context.getRemainingTimeInMillis() - RESPONSE_MARGIN_MS, () =>
      lambda(event, context as ApiContext),
    );
};
