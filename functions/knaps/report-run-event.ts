import { apiHandler } from '../../shared/http/api-handler.js';
import { json } from '../../shared/http/responses.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { lazySqsDeliveryQueue } from '../../shared/queue/lazy-sqs.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { parseRunReport } from '../../shared/schemas/knap-request.js';
import { reportOf } from '../../shared/services/request-state.js';
import { reportRun } from '../../shared/services/run-events.js';
import { RunEventStore } from '../../shared/store/run-event-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** A report is a type, a message and an output of at most 64 KB: room for those and JSON's escapes. */
const MAX_REPORT_BODY_BYTES = 80 * 1024;

/** POST /api/studio/runs/{run_id}/events with the run's report token: 201, the stored event. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'report', maxBodyBytes: MAX_REPORT_BODY_BYTES, noStore: true },
    async ({ deps, body, state }) => json(201, await reportRun(deps, reportOf(state), parseRunReport(body))),
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { runs: RunStore, runEvents: RunEventStore };
// A terminal report queues the run's outcome message (services/run-outcomes.ts): the SQS client
// loads with the first one, never for a progress report.
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv, remoteDeliveries: lazySqsDeliveryQueue }));
