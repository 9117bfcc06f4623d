import type { Deps } from '../runtime.js';
import { authenticateBearer } from '../services/bearer-auth.js';
import type { ApiMiddleware } from './types.js';

/** Authenticates `Authorization: Bearer ...` and meters the request before the handler runs. */
export const bearerAuth = (deps: Deps): ApiMiddleware => ({
  before: async (request) => {
    await authenticateBearer(deps, request.event.headers?.authorization, request.context.requestState);
  },
});
