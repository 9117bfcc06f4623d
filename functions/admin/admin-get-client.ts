import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { getOrgClient } from '../../shared/services/org-clients.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { ClientStore } from '../../shared/store/client-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** GET /api/admin/clients/{client_id}: one client, with its secrets' ids and dates and its public keys. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) => json(200, await getOrgClient(deps, adminOf(state), event.pathParameters?.client_id ?? '')),
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { clients: ClientStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
