import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseCreateKnap } from '../../shared/schemas/knap-request.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { createKnap } from '../../shared/services/knap-service.js';
import { callerOf } from '../../shared/services/request-state.js';

/** POST /api/studio/knap-tools */
export const createHandler = (deps: Deps) =>
  apiHandler(deps, { body: 'json', auth: 'bearer', maxBodyBytes: MAX_JSON_BODY_BYTES }, async ({ body, state }) => {
    const caller = callerOf(state);
    requireScope(caller, 'knaps:write');
    return json(201, await createKnap(deps, caller, parseCreateKnap(body)));
  });

export const handler = createHandler(defaultDeps());
