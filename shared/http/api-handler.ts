import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { settleBy } from '../deadlines.js';
import { startInvocation } from '../lambda/invocation.js';
import { outerScopeOf, type RequestScope } from '../request-scope.js';
import type { Deps } from '../runtime.js';
import { scopedDeps } from '../scoped-deps.js';
import type { RequestState } from '../services/request-state.js';
import { bodyLimit } from './body-limit.js';
import { AnswerOverdue, errorHandler } from './error-handler.js';
import { formBody } from './form-body.js';
import { jsonBody } from './json-body.js';
import { responseHeaders } from './response-headers.js';
import { correlationId } from './telemetry.js';
import type { ApiContext, HttpEvent, HttpResult, RequestStep } from './types.js';

export interface ApiHandlerOptions<Beside = never> {
  /** How to parse the body; `none` leaves it as sent. */
  body: 'json' | 'form' | 'none';
  /**
   * `bearer`: an API client's access token, metered; `admin`: an organization admin's access
   * token (not metered: the stack throttles admin routes); `client`: the handler authenticates
   * an OAuth client (form or HTTP Basic) itself; `report`: a run's report token for the
   * path's `run_id` (checked with no I/O, not metered per client).
   */
  auth: 'bearer' | 'admin' | 'client' | 'report' | 'none';
  maxBodyBytes: number;
  /** Responses that carry or judge credentials must never be cached, errors included. */
  noStore?: boolean;
  /**
   * `bearer` routes: the route's first read, started beside the metering write (one round trip
   * less), once the token's MAC holds; undefined to read nothing early. The handler gets what
   * it returned as `beside`, and only once authentication has passed.
   */
  beside?: (deps: Deps, event: HttpEvent, clientId: string) => Beside | undefined;
}

export interface ApiRequest<Beside = never> {
  /** The function's deps bound to this request: its DynamoDB calls keep its deadline, its log lines carry its ids. */
  deps: Deps;
  event: HttpEvent;
  /** The parsed body (a JSON value or a form's fields), unvalidated. */
  body: unknown;
  state: RequestState;
  /** What `options.beside` started next to authentication, if it started anything. */
  beside?: Beside;
  /** When the answer must be on its way (epoch ms, real time): a route that waits (an event stream) stops before it. */
  answerBy: number;
}

/** Time kept back from the Lambda timeout to turn a DynamoDB stall into a 503 and send it. */
const RESPONSE_MARGIN_MS = 1_000;

/**
 * Time kept back to answer a request still running for any other reason: after the DynamoDB
 * calls' deadline (whose errors say more), and early enough for the sweep's lateness (SWEEP_MS).
 */
const ANSWER_MARGIN_MS = 250;

/**
 * A step whose code is loaded the first time a request needs it, then called directly. The
 * three kinds of token need different code (an API client's tokens and metering, a JWT
 * verifier, a run's report tokens): a function loads only its routes' kinds. An area's module
 * re-exports the step its routes use, which keeps that code in its cold start as before.
 */
const loadedOnUse = (load: () => Promise<RequestStep>): RequestStep => {
  let step: RequestStep | undefined;
  let loading: Promise<RequestStep> | undefined;
  return (request) => {
    if (step) return step(request);
    loading ??= load().then(
      (loaded) => {
        step = loaded;
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading.then((loaded) => loaded(request));
  };
};

const authSteps = <Beside>(options: ApiHandlerOptions<Beside>): RequestStep[] => {
  switch (options.auth) {
    case 'bearer':
      return [loadedOnUse(async () => (await import('./on-use/bearer.js')).bearerAuth(options.beside))];
    case 'admin':
      return [loadedOnUse(async () => (await import('./on-use/admin-auth.js')).adminAuth)];
    case 'report':
      return [loadedOnUse(async () => (await import('./on-use/report-auth.js')).reportAuth)];
    default:
      return [];
  }
};

const bodyParsers: Record<ApiHandlerOptions['body'], RequestStep[]> = {
  json: [jsonBody],
  form: [formBody],
  none: [],
};

/**
 * Header names in lower case, as middy's http-header-normalizer makes them. API Gateway's
 * HTTP API (payload 2.0) sends them so already, and so does the local server: a copy only for
 * an event that has a name in another case (a hand-made one), the last of a name winning.
 */
const lowerCaseHeaderNames: RequestStep = (request) => {
  const { headers } = request.event;
  if (!headers) return;
  for (const name in headers) {
    if (name === name.toLowerCase()) continue;
    const lowered: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(headers)) lowered[key.toLowerCase()] = value;
    request.event.headers = lowered;
    return;
  }
};

const overdue = (): Error => new AnswerOverdue();

/**
 * The one middy chain every function uses: the response's common headers and the metrics
 * flush outermost (they see the final response, errors included), then error mapping; then,
 * as middy's handler, the request's checks in order: header names in lower case,
 * authentication, so that a caller without a valid token gets a 401 whatever its body; only
 * then body size and parsing; then the route's own handler.
 *
 * The checks run inside the handler rather than as middy `before` steps, each of which is an
 * await and a turn of its loop; and the whole of it is bounded by the request's `answerBy`,
 * on the process's watch list (shared/deadlines.ts), in place of middy's `timeoutEarly`, which
 * made a timer per request and left the checks (an admin token's key fetch) unbounded.
 */
export const apiHandler = <Beside = never>(
  deps: Deps,
  options: ApiHandlerOptions<Beside>,
  handle: (request: ApiRequest<Beside>) => Promise<HttpResult>,
) => {
  const steps: RequestStep[] = [
    lowerCaseHeaderNames,
    ...authSteps(options),
    bodyLimit(options.maxBodyBytes),
    ...bodyParsers[options.body],
  ];
  const checkedThenHandled = async (event: HttpEvent, context: ApiContext): Promise<HttpResult> => {
    const request = { event, context };
    for (const step of steps) {
      const done = step(request);
      if (done) await done;
    }
    // A check that answered after the request was (a late key fetch): the route's work does not start.
    if (Date.now() >= context.answerBy) throw overdue();
    return await handle({
      deps: context.deps,
      event,
      body: event.body as unknown,
      state: context.requestState,
      beside: context.besideAuth as Beside | undefined,
      answerBy: context.answerBy,
    });
  };
  const lambda = middy<HttpEvent, HttpResult, Error, ApiContext>({ timeoutEarlyInMillis: 0 })
    .use(responseHeaders(deps, { noStore: options.noStore, basicChallenge: options.auth === 'client' }))
    .use(errorHandler())
    .handler((event, context) => settleBy(checkedThenHandled(event, context), context.answerBy, overdue));
  const invoke = (event: HttpEvent, context: Context): Promise<HttpResult> => {
    const end = Date.now() + context.getRemainingTimeInMillis();
    // Under `npm start` the local server's fields (function, invocation id, counter) come first.
    // Copied, then set: on Node.js 20 a literal that starts with a spread and adds keys costs
    // microseconds (docs/performance.md, "Spreads on Node.js 20").
    const scope: RequestScope = Object.assign({}, outerScopeOf(context));
    scope.correlationId = correlationId(event, context);
    scope.deadline = end - RESPONSE_MARGIN_MS;
    // The request's own state, fresh per invocation (a warm Lambda reuses nothing of the last one's).
    const apiContext = Object.assign(context, {
      requestState: {},
      besideAuth: undefined,
      scope,
      deps: scopedDeps(deps, scope),
      answerBy: end - ANSWER_MARGIN_MS,
    }) as ApiContext;
    return lambda(event, apiContext);
  };
  // Not an async function: one returning middy's promise would add a promise and three turns of
  // the microtask queue to every request. Only a container's first invocation waits.
  return (event: HttpEvent, context: Context): Promise<HttpResult> => {
    try {
      const starting = startInvocation(deps.log, context);
      return starting ? starting.then(() => invoke(event, context)) : invoke(event, context);
    } catch (error) {
      // A rejection, never a throw, as the async function it replaces gave.
      return Promise.reject(error);
    }
  };
};
