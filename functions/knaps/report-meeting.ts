import { apiHandler } from '../../shared/http/api-handler.js';
import { json } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { SqsDeliveryQueue } from '../../shared/queue/sqs-queue.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseMeetingTranscription } from '../../shared/schemas/knap-request.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { callerOf } from '../../shared/services/request-state.js';
import { reportMeeting } from '../../shared/services/runs.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** A meeting report is a few fields; refuse anything large before parsing it. */
const MAX_MEETING_BODY_BYTES = 16 * 1024;

/** POST /api/studio/meeting-transcriptions: 202 with the runs, new or earlier, of this meeting. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'bearer', maxBodyBytes: MAX_MEETING_BODY_BYTES },
    async ({ deps, body, state }) => {
      const caller = callerOf(state);
      requireScope(caller, 'write:knaps');
      return json(202, await reportMeeting(deps, caller, parseMeetingTranscription(body)));
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore, runs: RunStore };
export const handler = createHandler(
  defaultDeps({ stores, tokenKeys: keyringFromEnv, remoteDeliveries: SqsDeliveryQueue.forUrl }),
);
