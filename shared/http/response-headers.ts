import type { Metrics } from '../metrics.js';
import { REQUEST_ID_HEADER } from '../request-scope.js';
import type { ApiMiddleware, ApiRequestOf } from './types.js';

export interface ResponseHeadersOptions {
  /** Responses that carry or judge credentials must never be cached (RFC 6749 section 5.1), errors included. */
  noStore?: boolean;
  /**
   * The OAuth endpoints' 401s to a client that sent an Authorization header (HTTP Basic, the
   * only scheme they take) carry the Basic challenge: RFC 6749 section 2.3.1 asks for it, and
   * HTTP for a challenge on every 401. Whatever refused the client (unknown, wrong secret,
   * revoked), it is added here, once. A client_secret_post client sent no header and gets none.
   */
  basicChallenge?: boolean;
}

const NO_STORE_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/**
 * What every answer gets once it is final, errors included (outermost in the chain, so it
 * sees what the error handler made of a failure), in one pass over its headers:
 * - the Basic challenge on a refused OAuth client (see the option);
 * - `Cache-Control: no-store` where asked;
 * - the IETF RateLimit header fields, to a known client;
 * - `X-Request-Id`, what an integrator quotes to support;
 * then the invocation's metrics are written (Powertools' logMetrics, for the port).
 * One middleware rather than one per header: each of middy's steps is an await, and each
 * spread of the headers a copy.
 */
export const responseHeaders = (deps: { metrics: Metrics }, options: ResponseHeadersOptions): ApiMiddleware => {
  const finish =
    (failed: boolean) =>
    (request: ApiRequestOf): void => {
      const { response } = request;
      if (response) {
        // One copy of the handler's headers (it may share its object), then assignments; not a
        // spread, which on Node.js 20 makes every key added after it cost microseconds.
        const headers: Record<string, string | number | boolean> = Object.assign({}, response.headers);
        if (failed && options.basicChallenge && response.statusCode === 401 && request.event.headers?.authorization !== undefined)
          headers['WWW-Authenticate'] = 'Basic realm="knap"';
        if (options.noStore) Object.assign(headers, NO_STORE_HEADERS);
        const rate = request.context.requestState?.rate;
        if (rate) {
          headers['RateLimit-Limit'] = String(rate.limit);
          headers['RateLimit-Remaining'] = String(rate.remaining);
          headers['RateLimit-Reset'] = String(rate.resetSeconds);
        }
        headers[REQUEST_ID_HEADER] = request.context.scope.correlationId;
        response.headers = headers;
      }
      deps.metrics.flush();
    };
  return { after: finish(false), onError: finish(true) };
};
