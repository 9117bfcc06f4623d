/**
 * Under `npm start`, the schedule dispatcher runs in-process every second (deployed, a
 * Lambda runs it every minute), so a run is created within a few seconds of next_run_at.
 *
 * Each pass has a deadline, as the deployed function has its timeout: its DynamoDB calls end by
 * then (shared/store/dynamo-client.ts), so a stalled DynamoDB fails the pass instead of holding
 * it, and the next pass comes an interval later; once DynamoDB answers again, passes succeed
 * again. close() stops the calls of a pass still under way after STOP_GRACE_MS (the scope's `stop`).
 */

import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { epochSeconds } from '../shared/domain/clock.js';
import type { Deps } from '../shared/runtime.js';
import { scopedDeps } from '../shared/scoped-deps.js';
import { dispatchDueRuns } from '../shared/services/dispatcher.js';
import { localFunctionArn } from './http-adapter.js';

export const DEFAULT_DISPATCH_INTERVAL_MS = 1_000;
/** How long close() lets a pass under way go on before it stops its DynamoDB calls. */
export const STOP_GRACE_MS = 1_000;
/** How long one pass may take (its DynamoDB calls, retries included). */
export const DEFAULT_DISPATCH_PASS_DEADLINE_MS = 10_000;

export interface DispatchTimer {
  close(): Promise<void>;
}

export interface DispatchTimerOptions {
  deps: () => Deps;
  intervalMs?: number;
  /** Default DEFAULT_DISPATCH_PASS_DEADLINE_MS. */
  passDeadlineMs?: number;
  onError?: (error: unknown) => void;
  /** Called after each pass that ended without an error. */
  onPass?: () => void;
}

/**
 * Starts with the upkeep a deployment runs once after an upgrade (the due-index backfill for
 * Knaps made before the index existed; revocation marks moved off client items; runs of earlier
 * versions given their place in the organization's listing; after-meeting Knaps given their
 * meeting-index entry), then a pass
 * every interval; never two passes at once, and close() waits for the one under way.
 */
export const startDispatchTimer = (options: DispatchTimerOptions): DispatchTimer => {
  const intervalMs = options.intervalMs ?? DEFAULT_DISPATCH_INTERVAL_MS;
  const onError = options.onError ?? ((error) => console.error(`Dispatching due runs failed: ${(error as Error).message}`));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let backfilled = false;
  let running: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  // Every call under way listens to it: as many as the work runs side by side.
  setMaxListeners(0, stopping.signal);
  const passDeadlineMs = options.passDeadlineMs ?? DEFAULT_DISPATCH_PASS_DEADLINE_MS;

  const pass = async () => {
    // Deployed, the dispatch-runs function does this work: its log lines say so here too.
    const scope = {
      functionName: 'dispatch-runs',
      functionArn: localFunctionArn('dispatch-runs'),
      requestId: randomUUID(),
      stop: stopping.signal,
    };
    if (!backfilled) {
      // Upkeep walks the whole table once: each call bounded by the client, the whole by close().
      const deps = scopedDeps(options.deps(), scope);
      const added = await deps.repo.backfillDueIndex();
      if (added > 0) console.log(`Due index: added ${added} scheduled Knap(s) written before it existed`);
      const moved = await deps.repo.migrateClientRevocations(epochSeconds(deps.clock.now()));
      if (moved.removed > 0) console.log(`Revocations: moved ${moved.removed} mark(s) off ${moved.clients} client item(s)`);
      const listed = await deps.repo.backfillOrgRunsIndex();
      if (listed > 0) console.log(`Runs: listed ${listed} run(s) written before admins could list them`);
      const meetings = await deps.repo.backfillMeetingIndex();
      if (meetings > 0) console.log(`Meeting index: added ${meetings} after-meeting Knap(s) written before it existed`);
      const counted = await deps.repo.recountQuotas();
      if (counted > 0) console.log(`Quotas: counted ${counted} organization(s) written before quotas existed`);
      backfilled = true;
    }
    await dispatchDueRuns(scopedDeps(options.deps(), { ...scope, deadline: Date.now() + passDeadlineMs }));
    options.onPass?.();
  };
  const tick = () => {
    running = pass()
      .catch(onError)
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(tick, intervalMs);
          timer.unref();
        }
      });
  };
  timer = setTimeout(tick, 0);
  timer.unref();
  return {
    close: async () => {
      stopped = true;
      clearTimeout(timer);
      // A pass under way may finish (it takes milliseconds); one held by a stalled DynamoDB is stopped.
      const grace = setTimeout(() => stopping.abort(), STOP_GRACE_MS);
      await running;
      clearTimeout(grace);
    },
  };
};
