import type { Deps } from '../runtime.js';
import { authenticateBearer } from '../services/bearer-auth.js';
import type { HttpEvent, RequestStep } from './types.js';

/**
 * Authenticates `Authorization: Bearer ...` and meters the request before the handler runs.
 * `beside`: the route's first read, started beside the metering write once the token's MAC
 * holds; its handle is kept in `context.besideAuth` for the handler, which sees it only if
 * authentication passed.
 */
export const bearerAuth =
  (beside?: (deps: Deps, event: HttpEvent, clientId: string) => unknown): RequestStep =>
  async (request) => {
    const { deps } = request.context;
    const start = beside
      ? (clientId: string) => {
          request.context.besideAuth = beside(deps, request.event, clientId);
        }
      : undefined;
    await authenticateBearer(deps, request.event.headers?.authorization, request.context.requestState, start);
  };
