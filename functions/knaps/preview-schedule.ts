import { apiHandler } from '../../shared/http/api-handler.js';
import { json } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseSchedulePreview } from '../../shared/schemas/knap-request.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { callerOf } from '../../shared/services/request-state.js';
import { scheduleParser } from '../../shared/services/schedule-parser.js';
import { previewSchedule } from '../../shared/services/schedule-preview.js';
import { ClientStore } from '../../shared/store/client-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** Far larger than any description (500 characters), small enough to refuse early. */
const MAX_PREVIEW_BODY_BYTES = 16 * 1024;

/** POST /api/studio/schedules/preview */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'bearer', maxBodyBytes: MAX_PREVIEW_BODY_BYTES },
    async ({ deps, body, state }) => {
      requireScope(callerOf(state), 'read:knaps');
      return json(200, previewSchedule(await scheduleParser(), deps, parseSchedulePreview(body)));
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
