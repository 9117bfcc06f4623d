import type { ApiMiddleware } from './types.js';

/** Gives each request a fresh state for the middlewares and the handler to share. */
export const requestState = (): ApiMiddleware => ({
  before: async (request) => {
    request.context.requestState = {};
    request.context.besideAuth = undefined;
  },
});
