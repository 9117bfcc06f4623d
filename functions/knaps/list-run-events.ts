import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json, noContent } from '../../shared/http/responses.js';
import { eventStream, wantsEventStream } from '../../shared/http/sse.js';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { requireScope } from '../../shared/services/bearer-auth.js';
import { callerOf } from '../../shared/services/request-state.js';
import {
  lastEventIdOf,
  listRunEvents,
  STREAM_SETTINGS,
  streamRunEvents,
  streamSettingsFromEnv,
} from '../../shared/services/run-watch.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunEventStore } from '../../shared/store/run-event-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/**
 * GET /api/studio/runs/{run_id}/events: `{"events": [...]}`, or with `Accept: text/event-stream`
 * one answer of a Server-Sent Events stream after `Last-Event-ID` (shared/services/run-watch.ts).
 */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'bearer', maxBodyBytes: MAX_IGNORED_BODY_BYTES },
    async ({ deps, event, state, answerBy }) => {
      const caller = callerOf(state);
      requireScope(caller, 'read:knaps');
      const runId = event.pathParameters?.run_id ?? '';
      if (!wantsEventStream(event.headers?.accept)) return json(200, await listRunEvents(deps, caller, runId));
      const after = lastEventIdOf(event.headers?.['last-event-id']);
      const settings = streamSettingsFromEnv();
      const answer = await streamRunEvents(deps, caller, runId, after, answerBy, settings);
      if (answer.kind === 'ended') return noContent();
      return eventStream(answer.events, STREAM_SETTINGS.retryMs);
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { clients: ClientStore, knaps: KnapStore, runs: RunStore, runEvents: RunEventStore };
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv }));
