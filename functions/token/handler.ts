import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_FORM_BODY_BYTES } from '../../shared/http/body-limit.js';
import { baseUrlOf, json } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { assertionAudiences, parseTokenRequest } from '../../shared/schemas/token-request.js';
import { grantTokens } from '../../shared/services/token-service.js';
import { ClientStore } from '../../shared/store/client-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** POST /api/oauth/token */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'form', auth: 'client', maxBodyBytes: MAX_FORM_BODY_BYTES, noStore: true },
    async ({ deps, event, body, state }) => {
      const request = parseTokenRequest(
        body,
        event.headers?.authorization,
        assertionAudiences(baseUrlOf(event), '/api/oauth/token'),
      );
      return json(200, await grantTokens(deps, request, state));
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
