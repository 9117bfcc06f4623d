import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseAddWebhook } from '../../shared/schemas/admin.js';
import { addOrgWebhook } from '../../shared/services/org-webhook-add.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { QuotaStore } from '../../shared/store/quota-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';
import { WebhookStore } from '../../shared/store/webhook-store.js';

/** POST /api/admin/webhooks */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'admin', maxBodyBytes: MAX_JSON_BODY_BYTES, noStore: true },
    async ({ deps, body, state }) => json(201, await addOrgWebhook(deps, adminOf(state), parseAddWebhook(body))),
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { webhooks: WebhookStore, admins: AdminStore, quotas: QuotaStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
