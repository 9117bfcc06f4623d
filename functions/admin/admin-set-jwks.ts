import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { setClientJwks } from '../../shared/services/client-keys.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { ClientStore } from '../../shared/store/client-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** PUT /api/admin/clients/{client_id}/jwks: the client's public keys for private_key_jwt. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'admin', maxBodyBytes: MAX_JSON_BODY_BYTES, noStore: true },
    async ({ deps, event, body, state }) => {
      const admin = adminOf(state);
      return json(200, await setClientJwks(deps, admin.actor, event.pathParameters?.client_id ?? '', body, admin.orgName));
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { clients: ClientStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
