/**
 * The schedule dispatcher: every active scheduled Knap gets exactly one run per occurrence.
 * Deployed, a Lambda started every minute once per shard calls it for that shard (lib/runs.ts);
 * under `npm start`, a timer every second, over every shard.
 *
 * For each due Knap (found through the sharded due index, never a scan):
 * 1. put the run, whose id derives from (uuid, occurrence): a second dispatcher, or this
 *    one retried after a crash, writes the same run, never a second one;
 * 2. claim the occurrence: one conditional write moves next_run_at to the next occurrence
 *    after now (occurrences missed while down collapse into this one run), and fails if
 *    another dispatcher, a PATCH or a DELETE came first;
 * 3. queue the run for delivery (whoever wrote the run, or won the claim: at least once).
 * The run goes first so that a crash between the two writes loses nothing: the occurrence
 * stays due, and the next pass writes the same run again (a no-op) and claims.
 *
 * Every pass reports its lag (metric DispatcherLagSeconds): now minus the oldest next_run_at
 * it found due, 0 when nothing was. A pass that fails reports nothing, which the lag alarm
 * reads as breaching, as it does a dispatcher that has stopped.
 */
import { isoSeconds } from '../domain/clock.js';
import type { StoredKnap } from '../domain/knaps.js';
import { DUE_SHARDS, newRun, runId } from '../domain/runs.js';
import { METRIC } from '../metrics.js';
import type { Deps } from '../runtime.js';
import { nextRunAt } from '../schedules/index.js';

export interface DispatchResult {
  /** Runs this pass created. */
  created: number;
  /** Occurrences this pass claimed (moved on). */
  claimed: number;
  /** Seconds from the oldest occurrence found due to the start of the pass; 0 when none was. */
  lagSeconds: number;
}

/** The oldest due occurrence seen so far by a pass, epoch milliseconds. */
interface Progress extends DispatchResult {
  oldestDue: number;
}

/** Knaps read per query of one shard. */
const BATCH = 100;
/** Claims under way at once per shard. */
const CONCURRENCY = 10;

const isDue = ({ knap }: StoredKnap, now: Date): boolean =>
  knap.schedule_type === 'scheduled' &&
  knap.is_active &&
  knap.schedule_info !== null &&
  knap.next_run_at !== null &&
  Date.parse(knap.next_run_at) <= now.getTime();

/** One due Knap: its run, then its claim, then its delivery. */
const dispatchOne = async (deps: Deps, stored: StoredKnap, now: Date, result: Progress): Promise<void> => {
  const { knap } = stored;
  const occurrence = knap.next_run_at as string;
  const info = knap.schedule_info as NonNullable<typeof knap.schedule_info>;
  const run = newRun({
    run_id: runId.scheduled(knap.uuid, occurrence),
    knap_uuid: knap.uuid,
    trigger: 'scheduled',
    scheduled_for: occurrence,
    meeting_id: null,
    created_at: isoSeconds(now),
  });
  const created = await deps.repo.putRun({ run, orgName: stored.ownership.orgName, deliveredTo: [] });
  const claimed = await deps.repo.claimOccurrence(stored, isoSeconds(nextRunAt(info, now)));
  if (created) result.created += 1;
  if (claimed) result.claimed += 1;
  if (created || claimed) await deps.deliveries.enqueue(run.run_id, 0);
};

/** Drains one shard: batch after batch, while the last one made progress. */
const drainShard = async (deps: Deps, shard: number, now: Date, result: Progress): Promise<void> => {
  for (;;) {
    const due = (await deps.repo.dueKnaps(shard, isoSeconds(now), BATCH)).filter((stored) => isDue(stored, now));
    for (const { knap } of due) result.oldestDue = Math.min(result.oldestDue, Date.parse(knap.next_run_at as string));
    const before = result.claimed;
    for (let start = 0; start < due.length; start += CONCURRENCY) {
      await Promise.all(due.slice(start, start + CONCURRENCY).map((stored) => dispatchOne(deps, stored, now, result)));
    }
    // Nothing claimed: what is left is the index catching up (or another dispatcher's work).
    if (due.length < BATCH || result.claimed === before) return;
  }
};

/** One pass over every shard (or the given ones), all at once. */
export const dispatchDueRuns = async (deps: Deps, shards: readonly number[] = allShards()): Promise<DispatchResult> => {
  const now = deps.clock.now();
  const progress: Progress = { created: 0, claimed: 0, lagSeconds: 0, oldestDue: Number.POSITIVE_INFINITY };
  await Promise.all(shards.map((shard) => drainShard(deps, shard, now, progress)));
  const { created, claimed, oldestDue } = progress;
  const lagSeconds = Number.isFinite(oldestDue) ? Math.max(0, Math.round((now.getTime() - oldestDue) / 1000)) : 0;
  deps.metrics.seconds(METRIC.dispatcherLag, lagSeconds);
  return { created, claimed, lagSeconds };
};

export const allShards = (): number[] => Array.from({ length: DUE_SHARDS }, (_, shard) => shard);
