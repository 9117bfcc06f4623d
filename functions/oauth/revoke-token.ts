import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_FORM_BODY_BYTES } from '../../shared/http/body-limit.js';
import { baseUrlOf } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { assertionAudiences, parseTokenOperation } from '../../shared/schemas/token-request.js';
import { revokeToken } from '../../shared/services/token-lifecycle.js';
import { ClientStore } from '../../shared/store/client-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** POST /api/oauth/revoke (RFC 7009): 200 with an empty body, whether or not the token was known. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'form', auth: 'client', maxBodyBytes: MAX_FORM_BODY_BYTES, noStore: true },
    async ({ deps, event, body, state }) => {
      await revokeToken(
        deps,
        parseTokenOperation(body, event.headers?.authorization, assertionAudiences(baseUrlOf(event), '/api/oauth/revoke')),
        state,
      );
      // Typed as JSON although empty: client libraries (simple-oauth2) refuse an untyped answer.
      return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '' };
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
