import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { callerOf } from '../../shared/services/request-state.js';
import { getRun } from '../../shared/services/run-watch.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunEventStore } from '../../shared/store/run-event-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** GET /api/studio/runs/{run_id}: the run, for whoever sees its Knap. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'bearer', maxBodyBytes: MAX_IGNORED_BODY_BYTES },
    async ({ deps, event, state }) => {
      const caller = callerOf(state);
      requireScope(caller, 'read:knaps');
      return json(200, await getRun(deps, caller, event.pathParameters?.run_id ?? ''));
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore, runs: RunStore, runEvents: RunEventStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
