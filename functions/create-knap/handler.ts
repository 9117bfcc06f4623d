import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { knapResponse } from '../../shared/http/knap-response.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseCreateKnap } from '../../shared/schemas/knap-request.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { idempotent } from '../../shared/services/idempotency.js';
import { createKnap } from '../../shared/services/knap-service.js';
import { callerOf } from '../../shared/services/request-state.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { IdempotencyStore } from '../../shared/store/idempotency-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { QuotaStore } from '../../shared/store/quota-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

// Its one route checks a bearer token: that code is part of the cold start (api-handler loads it on use).
export { bearerAuth } from '../../shared/http/bearer.js';

/** POST /api/studio/knap-tools, with an optional Idempotency-Key. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'bearer', maxBodyBytes: MAX_JSON_BODY_BYTES },
    async ({ deps, event, body, state }) => {
      const caller = callerOf(state);
      requireScope(caller, 'write:knaps');
      const input = parseCreateKnap(body);
      const answer = await idempotent(deps, caller, { key: event.headers?.['idempotency-key'], body }, async (uuid) => {
        const {
          statusCode = 201,
          headers = {},
          body: text = '',
        } = knapResponse(201, await createKnap(deps, caller, input, uuid), caller.client);
        return { status: statusCode, headers: headers as Record<string, string>, body: text };
      });
      const headers = Object.assign({}, answer.headers);
      if (answer.replayed) headers['Idempotent-Replayed'] = 'true';
      return { statusCode: answer.status, headers, body: answer.body };
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore, idempotency: IdempotencyStore, quotas: QuotaStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
