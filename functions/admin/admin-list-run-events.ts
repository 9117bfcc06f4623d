import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json, noContent } from '../../shared/http/responses.js';
import { eventStream, wantsEventStream } from '../../shared/http/sse.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { adminWatcher } from '../../shared/services/org-run-watch.js';
import { adminOf } from '../../shared/services/request-state.js';
import {
  lastEventIdOf,
  listRunEvents,
  STREAM_SETTINGS,
  streamRunEvents,
  streamSettingsFromEnv,
} from '../../shared/services/run-watch.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { RunEventStore } from '../../shared/store/run-event-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/**
 * GET /api/admin/runs/{run_id}/events: the studio route's answers (shared/services/run-watch.ts)
 * for any run of the admin's organization: `{"events": [...]}`, or with `Accept:
 * text/event-stream` one answer of a Server-Sent Events stream after `Last-Event-ID`.
 */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state, answerBy }) => {
      const watcher = adminWatcher(adminOf(state));
      const runId = event.pathParameters?.run_id ?? '';
      if (!wantsEventStream(event.headers?.accept)) return json(200, await listRunEvents(deps, watcher, runId));
      const after = lastEventIdOf(event.headers?.['last-event-id']);
      const answer = await streamRunEvents(deps, watcher, runId, after, answerBy, streamSettingsFromEnv());
      if (answer.kind === 'ended') return noContent();
      return eventStream(answer.events, STREAM_SETTINGS.retryMs);
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { runs: RunStore, runEvents: RunEventStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
