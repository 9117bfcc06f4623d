import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseAdminRunsQuery } from '../../shared/schemas/admin-runs.js';
import { listOrgRuns } from '../../shared/services/org-runs.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { DeliveryStore } from '../../shared/store/delivery-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** GET /api/admin/runs?limit=&cursor=&knap_uuid=&status=&outcome= */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) => {
      const { filter, ...page } = parseAdminRunsQuery(event.queryStringParameters);
      return json(200, await listOrgRuns(deps, adminOf(state), page, filter));
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { runs: RunStore, admins: AdminStore, deliveries: DeliveryStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
