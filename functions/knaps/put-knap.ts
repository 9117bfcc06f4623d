import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { knapResponse } from '../../shared/http/knap-response.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { type EarlyKnapRead, knapReadBeside, updateKnap } from '../../shared/services/knap-lifecycle.js';
import { callerOf } from '../../shared/services/request-state.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { QuotaStore } from '../../shared/store/quota-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/**
 * PUT /api/studio/knap-tools/{uuid}: Knapsack's update. Every field is optional and the
 * fields given change, as PATCH's merge patch does (Knapsack's clients send PUT), with the
 * same validation, ETag, If-Match and answer. Read-only members sent back unchanged are ignored.
 */
export const createHandler = (functionDeps: Deps) =>
  apiHandler<EarlyKnapRead>(
    functionDeps,
    {
      body: 'json',
      auth: 'bearer',
      maxBodyBytes: MAX_JSON_BODY_BYTES,
      beside: knapReadBeside,
    },
    async ({ deps, event, body, state, beside }) => {
      const caller = callerOf(state);
      requireScope(caller, 'write:knaps');
      const uuid = event.pathParameters?.uuid ?? '';
      return knapResponse(200, await updateKnap(deps, caller, uuid, body, event.headers?.['if-match'], beside), caller.client);
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore, quotas: QuotaStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
