import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseListKnapsQuery } from '../../shared/schemas/knap-request.js';
import { listOrgKnaps } from '../../shared/services/org-knaps.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** GET /api/admin/knaps?limit=&cursor=: every Knap of the organization, private ones included. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) =>
      json(200, await listOrgKnaps(deps, adminOf(state), parseListKnapsQuery(event.queryStringParameters))),
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { knaps: KnapStore, runs: RunStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
