import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { SqsDeliveryQueue } from '../../shared/queue/sqs-queue.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseRecoverWebhook } from '../../shared/schemas/webhook-recovery.js';
import { adminOf } from '../../shared/services/request-state.js';
import { recoverOrgWebhook } from '../../shared/services/webhook-recovery.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';
import { WebhookStore } from '../../shared/store/webhook-store.js';

/** POST /api/admin/webhooks/{endpoint_id}/recover */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'admin', maxBodyBytes: MAX_JSON_BODY_BYTES, noStore: true },
    async ({ deps, event, body, state }) =>
      json(
        202,
        await recoverOrgWebhook(deps, adminOf(state), event.pathParameters?.endpoint_id ?? '', parseRecoverWebhook(body)),
      ),
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { webhooks: WebhookStore, admins: AdminStore };
export const handler = createHandler(
  defaultDeps({ stores, adminTokens: adminTokensFromEnv, remoteDeliveries: SqsDeliveryQueue.forUrl }),
);
