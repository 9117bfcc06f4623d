import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { noContent } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { removeOrgWebhook } from '../../shared/services/org-webhooks.js';
import { adminOf } from '../../shared/services/request-state.js';

/** DELETE /api/admin/webhooks/{endpoint_id} */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) => {
      await removeOrgWebhook(deps, adminOf(state), event.pathParameters?.endpoint_id ?? '');
      return noContent();
    },
  );

export const handler = createHandler(defaultDeps({ adminTokens: adminTokensFromEnv }));
