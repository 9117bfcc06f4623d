import type { ApiMiddleware } from './types.js';

/**
 * The OAuth endpoints' 401s to a client that sent an Authorization header (HTTP Basic, the
 * only scheme they take) carry the Basic challenge: RFC 6749 section 2.3.1 asks for it, and
 * HTTP for a challenge on every 401. Whatever refused the client (unknown, wrong secret,
 * revoked), it is added here, once. A client_secret_post client sent no header and gets none.
 */
export const basicChallenge = (): ApiMiddleware => ({
  onError: async (request) => {
    const { response } = request;
    if (response?.statusCode === 401 && request.event.headers?.authorization !== undefined) {
      response.headers = { ...response.headers, 'WWW-Authenticate': 'Basic realm="knap"' };
    }
  },
});
