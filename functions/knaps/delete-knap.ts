import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { deleteKnap, type EarlyKnapRead, KNAP_DELETED, knapReadBeside } from '../../shared/services/knap-lifecycle.js';
import { callerOf } from '../../shared/services/request-state.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { QuotaStore } from '../../shared/store/quota-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/**
 * DELETE /api/studio/knap-tools/{uuid}: the Knap is read beside the metering write, then
 * deleted by one conditional write: two round trips in all.
 */
export const createHandler = (functionDeps: Deps) =>
  apiHandler<EarlyKnapRead>(
    functionDeps,
    {
      body: 'none',
      auth: 'bearer',
      maxBodyBytes: MAX_IGNORED_BODY_BYTES,
      beside: knapReadBeside,
    },
    async ({ deps, event, state, beside }) => {
      const caller = callerOf(state);
      requireScope(caller, 'write:knaps');
      await deleteKnap(deps, caller, event.pathParameters?.uuid ?? '', event.headers?.['if-match'], beside);
      // Knapsack's answer (it was 204 with no body before 2.0; see CHANGELOG).
      return json(200, { message: KNAP_DELETED });
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore, quotas: QuotaStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
