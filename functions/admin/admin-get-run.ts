import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { getOrgRun } from '../../shared/services/org-run-watch.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { DeliveryStore } from '../../shared/store/delivery-store.js';
import { RunEventStore } from '../../shared/store/run-event-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** GET /api/admin/runs/{run_id}: the run with its delivery attempts and its events. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) => json(200, await getOrgRun(deps, adminOf(state), event.pathParameters?.run_id ?? '')),
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { runs: RunStore, runEvents: RunEventStore, admins: AdminStore, deliveries: DeliveryStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
