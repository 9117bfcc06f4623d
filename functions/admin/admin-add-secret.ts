import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { parseJson } from '../../shared/domain/storable-json.js';
import { ApiError } from '../../shared/errors.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { bodyText } from '../../shared/http/body-text.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseAddSecret } from '../../shared/schemas/admin.js';
import { addClientSecret } from '../../shared/services/client-secrets.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { ClientStore } from '../../shared/store/client-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** The body is optional: none at all, or `{"expires_in_days"}`. */
const optionalJson = (text: string | undefined): unknown => {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return parseJson(text);
  } catch {
    throw new ApiError(400, 'Request body is not valid JSON');
  }
};

/** POST /api/admin/clients/{client_id}/secrets: a second live secret, shown this once. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_JSON_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) => {
      const admin = adminOf(state);
      const request = parseAddSecret(optionalJson(bodyText(event)));
      const clientId = event.pathParameters?.client_id ?? '';
      return json(
        201,
        await addClientSecret(deps, admin.actor, clientId, { orgName: admin.orgName, expiresInDays: request.expires_in_days }),
      );
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { clients: ClientStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
