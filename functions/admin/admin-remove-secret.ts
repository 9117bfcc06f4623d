import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { noContent } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { removeClientSecret } from '../../shared/services/client-secrets.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { ClientStore } from '../../shared/store/client-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** DELETE /api/admin/clients/{client_id}/secrets/{secret_id}: the secret is refused from now on. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) => {
      const admin = adminOf(state);
      await removeClientSecret(
        deps,
        admin.actor,
        event.pathParameters?.client_id ?? '',
        event.pathParameters?.secret_id ?? '',
        admin.orgName,
      );
      return noContent();
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { clients: ClientStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
