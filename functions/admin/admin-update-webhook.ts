import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseUpdateWebhook } from '../../shared/schemas/admin.js';
import { updateOrgWebhook } from '../../shared/services/org-webhooks.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';
import { WebhookStore } from '../../shared/store/webhook-store.js';

/** PATCH /api/admin/webhooks/{endpoint_id} */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'admin', maxBodyBytes: MAX_JSON_BODY_BYTES, noStore: true },
    async ({ deps, event, body, state }) =>
      json(200, await updateOrgWebhook(deps, adminOf(state), event.pathParameters?.endpoint_id ?? '', parseUpdateWebhook(body))),
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { webhooks: WebhookStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
