import type { ApiMiddleware } from './types.js';

/** IETF RateLimit header fields on every response to a known client, errors included. */
export const rateLimitHeaders = (): ApiMiddleware => {
  const addHeaders: NonNullable<ApiMiddleware['after']> = async (request) => {
    const rate = request.context.requestState?.rate;
    if (!rate || !request.response) return;
    request.response.headers = {
      ...request.response.headers,
      'RateLimit-Limit': String(rate.limit),
      'RateLimit-Remaining': String(rate.remaining),
      'RateLimit-Reset': String(rate.resetSeconds),
    };
  };
  return {
    after: addHeaders,
    onError: addHeaders,
  };
};
