import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { knapResponse } from '../../shared/http/knap-response.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { type EarlyKnapRead, knapReadBeside, readKnap } from '../../shared/services/knap-lifecycle.js';
import { callerOf } from '../../shared/services/request-state.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** GET /api/studio/knap-tools/{uuid}: the Knap is read beside the metering write, one round trip in all. */
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
      requireScope(caller, 'read:knaps');
      return knapResponse(200, await readKnap(deps, caller, event.pathParameters?.uuid ?? '', beside), caller.client);
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
