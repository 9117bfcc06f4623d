import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseWebhookAttemptsQuery } from '../../shared/schemas/webhook-attempts.js';
import { adminOf } from '../../shared/services/request-state.js';
import { listWebhookAttempts } from '../../shared/services/webhook-attempts.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { DeliveryStore } from '../../shared/store/delivery-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';
import { WebhookStore } from '../../shared/store/webhook-store.js';

/** GET /api/admin/webhooks/{endpoint_id}/attempts?limit=&cursor= */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) =>
      json(
        200,
        await listWebhookAttempts(
          deps,
          adminOf(state),
          event.pathParameters?.endpoint_id ?? '',
          parseWebhookAttemptsQuery(event.queryStringParameters),
        ),
      ),
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { webhooks: WebhookStore, admins: AdminStore, deliveries: DeliveryStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
