import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { baseUrlOf, json } from '../../shared/http/responses.js';
import { openApiDocument } from '../../shared/openapi/document.js';
import { publicDeps } from '../../shared/public-deps.js';
import type { Deps } from '../../shared/runtime.js';

/**
 * GET /api/openapi.json: public, not metered; its server is the address it was asked on, and
 * its admin OpenID Connect discovery URL the admin issuer's (ADMIN_ISSUER; without it, the
 * local provider under /oidc of that address, as `npm start` serves it).
 */
export const createHandler = (functionDeps: Deps, env: NodeJS.ProcessEnv = process.env) =>
  apiHandler(functionDeps, { body: 'none', auth: 'none', maxBodyBytes: MAX_IGNORED_BODY_BYTES }, async ({ event }) =>
    json(200, openApiDocument(baseUrlOf(event), env.ADMIN_ISSUER || undefined), { 'Cache-Control': 'public, max-age=300' }),
  );

export const handler = createHandler(publicDeps());
