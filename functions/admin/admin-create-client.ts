import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseCreateClient } from '../../shared/schemas/admin.js';
import { createOrgClient } from '../../shared/services/org-clients.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { QuotaStore } from '../../shared/store/quota-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** POST /api/admin/clients */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'admin', maxBodyBytes: MAX_JSON_BODY_BYTES, noStore: true },
    async ({ deps, body, state }) => json(201, await createOrgClient(deps, adminOf(state), parseCreateClient(body))),
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, admins: AdminStore, quotas: QuotaStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
