import type { ApiMiddleware } from './types.js';

const NO_STORE_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** Responses that carry or judge credentials must never be cached (RFC 6749 section 5.1), errors included. */
export const noStore = (): ApiMiddleware => {
  const add: NonNullable<ApiMiddleware['after']> = async (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, ...NO_STORE_HEADERS };
  };
  return { after: add, onError: add };
};
