import { authorizationServerMetadata } from '../../shared/domain/oauth-metadata.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { baseUrlOf, json } from '../../shared/http/responses.js';
import { publicDeps } from '../../shared/public-deps.js';
import type { Deps } from '../../shared/runtime.js';

/** GET /.well-known/oauth-authorization-server: public, not metered, cacheable. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(functionDeps, { body: 'none', auth: 'none', maxBodyBytes: MAX_IGNORED_BODY_BYTES }, async ({ event }) =>
    json(200, authorizationServerMetadata(baseUrlOf(event)), { 'Cache-Control': 'public, max-age=3600' }),
  );

export const handler = createHandler(publicDeps());
