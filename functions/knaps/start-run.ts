import { apiHandler } from '../../shared/http/api-handler.js';
import { json } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { SqsDeliveryQueue } from '../../shared/queue/sqs-queue.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseStartRun } from '../../shared/schemas/knap-request.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { callerOf } from '../../shared/services/request-state.js';
import { startManualRun } from '../../shared/services/runs.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** `{"input": ...}` is at most 64 KB of JSON; room for the member's name and spaces around it. */
const MAX_START_BODY_BYTES = 72 * 1024;

/** POST /api/studio/knap-tools/{uuid}/runs (optional `{"input": {...}}`): 202, the run, delivered in the background. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'bearer', maxBodyBytes: MAX_START_BODY_BYTES },
    async ({ deps, event, state }) => {
      const caller = callerOf(state);
      requireScope(caller, 'write:knaps');
      const { input } = parseStartRun(event);
      return json(202, await startManualRun(deps, caller, event.pathParameters?.uuid ?? '', input ?? null));
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore, runs: RunStore };
export const handler = createHandler(
  defaultDeps({ stores, tokenKeys: keyringFromEnv, remoteDeliveries: SqsDeliveryQueue.forUrl }),
);
