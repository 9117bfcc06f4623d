/**
 * The schedule dispatcher: every active scheduled Knap gets exactly one run per occurrence.
 * Deployed, one coordinator invocation a minute (lib/runs.ts) looks at every shard of the due
 * index, drains them itself when little is due, and otherwise hands the larger share to at
 * most a few worker invocations through the dispatch queue (coordinateDispatch); under
 * `npm start`, a timer every second drains every shard in-process (dispatchDueRuns).
 *
 * For each due Knap (found through the sharded due index, never a scan):
 * 1. put the run, whose id derives from (uuid, occurrence): a second dispatcher, or this
 *    one retried after a crash, writes the same run, never a second one;
 * 2. queue the run for delivery if this put created it;
 * 3. claim the occurrence: one conditional write moves next_run_at to the next occurrence
 *    after now (occurrences missed while down collapse into this one run), and fails if
 *    another dispatcher, a PATCH or a DELETE came first; a claim that won for a run this pass
 *    did not create (an earlier pass stopped between its put and its claim) queues it then.
 * The run goes first so that a crash between the writes loses nothing: the occurrence stays
 * due, and the next pass writes the same run again (a no-op) and claims. The delivery is
 * queued before the claim so that a claim whose answer never comes back (a deadline, a stall)
 * cannot leave a run claimed and never delivered; delivery is idempotent by run id.
 *
 * A pass has an end (`stopAt`): past it no Knap is started, the ones under way finish, and
 * what is left stays due for the next pass. Every pass reports its lag (metric
 * DispatcherLagSeconds): now minus the oldest next_run_at it found due, 0 when nothing was. A
 * pass that fails reports nothing, which the lag alarm reads as breaching, as it does a
 * dispatcher that has stopped.
 */
import { settleBy } from '../deadlines.js';
import { isoSeconds } from '../domain/clock.js';
import type { StoredKnap } from '../domain/knaps.js';
import type { DueEntry } from '../domain/repository.js';
import { DUE_SHARDS, newRun, runId } from '../domain/runs.js';
import { METRIC } from '../metrics.js';
import type { Deps } from '../runtime.js';
import { nextRunOrNull } from '../schedules/index.js';

export interface DispatchResult {
  /** Runs this pass created. */
  created: number;
  /** Occurrences this pass claimed (moved on). */
  claimed: number;
  /** Seconds from the oldest occurrence found due to the start of the pass; 0 when none was. */
  lagSeconds: number;
}

export interface DispatchOptions {
  /**
   * Epoch ms (the real clock, as Lambda's timeout is): no Knap is started after it; the ones
   * under way finish. What is left stays due for the next pass. Undefined: no end.
   */
  stopAt?: number;
  /**
   * Epoch ms: the queue sends (delivery, fan-out) give up by then, as the DynamoDB calls do by
   * their scope's deadline, so the invocation fails before its Lambda timeout. A delivery not
   * queued leaves its occurrence unclaimed: the next pass claims it and queues the run then.
   */
  deadline?: number;
}

/** A pass under way: its counts, the oldest due occurrence seen (epoch ms), and whether it stopped at its end. */
interface Progress extends DispatchResult {
  oldestDue: number;
  stopped: boolean;
}

/** Knaps read per BatchGetItem, and dispatched side by side: one chunk of the fair order at a time. */
const BATCH = 100;
/**
 * Due entries read per shard per round (keys only, ~100 bytes each): a round sees at least this
 * much of every shard, so the fair order is over everything due, not one shard's share.
 */
export const DUE_ENTRIES_PER_SHARD = 1_000;
/**
 * Runs one organization may have dispatched per round. What it has left stays due and comes in
 * the next round, which reads the index again: an organization whose Knap fell due meanwhile
 * waits for at most one round of this many runs per organization, never a whole hot minute.
 */
export const PER_ORG_PER_ROUND = 200;

const isDue = ({ knap }: StoredKnap, now: Date): boolean =>
  knap.schedule_type === 'scheduled' &&
  knap.is_active &&
  knap.schedule_info !== null &&
  knap.next_run_at !== null &&
  Date.parse(knap.next_run_at) <= now.getTime();

class QueueDeadlineError extends Error {
  override readonly name = 'DeadlineExceededError';
  constructor(what: string) {
    super(`${what} did not answer before the invocation's deadline`);
  }
}

/** A queue send bounded by the pass's deadline. */
const sendBy = <T>(send: Promise<T>, options: DispatchOptions, what: string): Promise<T> =>
  settleBy(send, options.deadline, () => new QueueDeadlineError(what));

/** One due Knap: its run, its delivery, then its claim. */
const dispatchOne = async (
  deps: Deps,
  stored: StoredKnap,
  now: Date,
  result: Progress,
  options: DispatchOptions,
): Promise<void> => {
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
  const created = await deps.repo.putRun({ run, orgName: stored.ownership.orgName, deliveredTo: [], knapName: knap.name });
  if (created) {
    result.created += 1;
    await sendBy(deps.deliveries.enqueue(run.run_id, 0, { orgName: stored.ownership.orgName }), options, 'The delivery queue');
  }
  // A one-off, or a schedule past its `until` (a `count` is stored as the `until` of its last
  // run): no next occurrence, and the Knap leaves the due index.
  const next = nextRunOrNull(info, now);
  const claimed = await deps.repo.claimOccurrence(stored, next === null ? null : isoSeconds(next));
  if (claimed) {
    result.claimed += 1;
    if (!created)
      await sendBy(deps.deliveries.enqueue(run.run_id, 0, { orgName: stored.ownership.orgName }), options, 'The delivery queue');
  }
};

const pastEnd = (options: DispatchOptions): boolean => options.stopAt !== undefined && Date.now() >= options.stopAt;

/**
 * The order a round dispatches in, fair across organizations: round-robin, the first due entry
 * of every organization, then the second of each, and so on (organizations by their oldest due
 * entry, each one's entries soonest first), at most `perOrg` of each. One tenant's thousand
 * Knaps due this minute put another's one Knap at most one place per organization back.
 * Also says whether any organization had more than `perOrg`.
 */
export const fairOrder = (entries: readonly DueEntry[], perOrg = PER_ORG_PER_ROUND): { order: DueEntry[]; capped: boolean } => {
  const byOrg = new Map<string, DueEntry[]>();
  for (const entry of entries) {
    const list = byOrg.get(entry.orgName);
    if (list) list.push(entry);
    else byOrg.set(entry.orgName, [entry]);
  }
  const soonest = (a: DueEntry, b: DueEntry) => a.nextRunAt.localeCompare(b.nextRunAt) || a.key.sk.localeCompare(b.key.sk);
  const queues = [...byOrg.values()]
    .map((list) => list.sort(soonest))
    .sort((a, b) => soonest(a[0] as DueEntry, b[0] as DueEntry));
  const order: DueEntry[] = [];
  const rounds = Math.min(perOrg, Math.max(0, ...queues.map((list) => list.length)));
  for (let round = 0; round < rounds; round += 1) {
    for (const list of queues) {
      const entry = list[round];
      if (entry) order.push(entry);
    }
  }
  return { order, capped: queues.some((list) => list.length > perOrg) };
};

/** Dispatches a round's order, a chunk at a time: its Knaps read in one BatchGetItem, then all at once. */
const dispatchInOrder = async (
  deps: Deps,
  order: readonly DueEntry[],
  now: Date,
  result: Progress,
  options: DispatchOptions,
): Promise<void> => {
  for (let start = 0; start < order.length; start += BATCH) {
    if (pastEnd(options)) {
      result.stopped = true;
      return;
    }
    const chunk = order.slice(start, start + BATCH);
    const read = await deps.repo.knapsByKeys(chunk.map((entry) => entry.key));
    // BatchGetItem answers in any order: back to the fair one.
    const position = new Map(chunk.map((entry, index) => [entry.key.sk, index]));
    const due = read
      .filter((stored) => isDue(stored, now))
      .sort((a, b) => (position.get(`KNAP#${a.knap.uuid}`) ?? 0) - (position.get(`KNAP#${b.knap.uuid}`) ?? 0));
    for (const { knap } of due) result.oldestDue = Math.min(result.oldestDue, Date.parse(knap.next_run_at as string));
    await Promise.all(due.map((stored) => dispatchOne(deps, stored, now, result, options)));
  }
};

/**
 * Drains the given shards, round after round, fairly across organizations: each round reads
 * what is due in every shard (keys only), orders it round-robin by organization with at most
 * PER_ORG_PER_ROUND runs of each (fairOrder), and dispatches that. Another round follows while
 * the last one made progress and left work (a full page, or an organization over its share),
 * and the pass has time; it reads the index again, so what fell due meanwhile takes its turn.
 */
const drainFairly = async (deps: Deps, shards: readonly number[], now: Date, result: Progress, options: DispatchOptions) => {
  for (;;) {
    if (pastEnd(options)) {
      result.stopped = true;
      return;
    }
    const pages = await Promise.all(shards.map((shard) => deps.repo.dueEntries(shard, isoSeconds(now), DUE_ENTRIES_PER_SHARD)));
    const { order, capped } = fairOrder(pages.flat());
    if (order.length === 0) return;
    const before = result.claimed;
    await dispatchInOrder(deps, order, now, result, options);
    if (result.stopped) return;
    // Nothing claimed: what is left is the index catching up (or another dispatcher's work).
    const more = capped || pages.some((page) => page.length >= DUE_ENTRIES_PER_SHARD);
    if (!more || result.claimed === before) return;
  }
};

const newProgress = (): Progress => ({
  created: 0,
  claimed: 0,
  lagSeconds: 0,
  oldestDue: Number.POSITIVE_INFINITY,
  stopped: false,
});

/** Drains the given shards (fairly across organizations), reporting nothing. */
const drain = async (deps: Deps, shards: readonly number[], now: Date, options: DispatchOptions): Promise<Progress> => {
  const progress = newProgress();
  if (shards.length > 0) await drainFairly(deps, shards, now, progress, options);
  return progress;
};

const lagOf = (now: Date, oldestDue: number): number =>
  Number.isFinite(oldestDue) ? Math.max(0, Math.round((now.getTime() - oldestDue) / 1000)) : 0;

/** One pass over every shard (or the given ones), all at once, in this process. */
export const dispatchDueRuns = async (
  deps: Deps,
  shards: readonly number[] = allShards(),
  options: DispatchOptions = {},
): Promise<DispatchResult> => {
  const now = deps.clock.now();
  const { created, claimed, oldestDue } = await drain(deps, shards, now, options);
  const lagSeconds = lagOf(now, oldestDue);
  deps.metrics.seconds(METRIC.dispatcherLag, lagSeconds);
  return { created, claimed, lagSeconds };
};

export const allShards = (): number[] => Array.from({ length: DUE_SHARDS }, (_, shard) => shard);

// --- The coordinator: one invocation a minute, fanning out only as the due work requires ---

/** One shard of the due index as the coordinator sees it: how much is due (counted up to a cap), and since when. */
export interface ShardLoad {
  shard: number;
  due: number;
  /** The oldest due next_run_at (ISO); null when nothing is due. */
  oldest: string | null;
}

/** Who drains what this minute: the coordinator its own shards, each message one worker invocation's. */
export interface DispatchPlan {
  own: number[];
  messages: number[][];
}

/**
 * Runs the coordinator drains alone, whatever the shards: about 2-3 s of one vCPU
 * (bench/dispatch.ts). Beyond it, the work is shared with workers.
 */
export const COORDINATOR_BUDGET = 1_000;
/**
 * Each shard's due entries are counted up to this (one keys-only query page, ~100 KB): enough
 * to tell a small minute from a large one and to balance the large ones between workers.
 */
export const DUE_COUNT_LIMIT = 2_000;

/**
 * The minute's plan. Little due (at most `budget` runs): the coordinator drains every shard with
 * work itself and sends nothing. More: the shards with work are shared out between the
 * coordinator and at most `workers` messages, the largest shard first to the least loaded
 * (longest processing time first), so each invocation gets about the same number of runs; each
 * shard goes to exactly one of them. The coordinator keeps the lightest share (it spent its
 * first moments counting). A single busy shard is never sent: a worker would drain it no faster.
 */
export const planDispatch = (loads: readonly ShardLoad[], workers: number, budget = COORDINATOR_BUDGET): DispatchPlan => {
  const busy = loads.filter((load) => load.due > 0);
  const total = busy.reduce((sum, load) => sum + load.due, 0);
  const shares = Math.min(Math.max(0, workers) + 1, busy.length);
  if (total <= budget || shares <= 1) return { own: busy.map((load) => load.shard), messages: [] };
  const bins = Array.from({ length: shares }, () => ({ due: 0, shards: [] as number[] }));
  const largestFirst = [...busy].sort((a, b) => b.due - a.due || a.shard - b.shard);
  for (const load of largestFirst) {
    const bin = bins.reduce((least, each) => (each.due < least.due ? each : least));
    bin.shards.push(load.shard);
    bin.due += load.due;
  }
  const [own, ...rest] = bins.sort((a, b) => a.due - b.due);
  return { own: own?.shards ?? [], messages: rest.map((bin) => bin.shards) };
};

/** A worker's message: the shards to drain, and when the minute's pass ends (ISO; a worker that starts later drains nothing). */
export interface DispatchMessage {
  shards: number[];
  by: string;
}

/**
 * Where the coordinator sends the shards it does not drain itself: the dispatch queue (SQS,
 * functions/dispatch-runs/fan-out.ts), whose event source starts a worker invocation per
 * message, at most maxConcurrency at once.
 */
export interface DispatchFanOut {
  send(message: DispatchMessage): Promise<void>;
}

export interface CoordinateOptions extends DispatchOptions {
  /** The fan-out; absent (npm start, a local invocation, tests), the coordinator drains every shard itself. */
  fanOut?: DispatchFanOut;
  /** How many worker invocations may run at once (the event source's maxConcurrency). */
  workers: number;
  /** Epoch ms: when the minute's workers must stop (a message's `by`). */
  workersStopAt: number;
  budget?: number;
}

export interface CoordinateResult extends DispatchResult {
  /** Runs found due over every shard, each shard counted up to DUE_COUNT_LIMIT. */
  due: number;
  /** The shards this invocation drained itself. */
  own: number[];
  /** The messages sent, each one worker invocation's shards. */
  fannedOut: number[][];
  /** The pass reached its end with work left: it stays due for the next minute. */
  stopped: boolean;
}

/**
 * The coordinator's minute: counts each shard's due entries (one keys-only query per shard),
 * plans, sends the workers' messages, then drains its own share until `stopAt`. A message that
 * cannot be sent is drained here instead, and the error is thrown once that is done (the
 * errors alarm). Its lag is the minute's: now minus the oldest occurrence due in any shard,
 * whoever drains it.
 */
export const coordinateDispatch = async (deps: Deps, options: CoordinateOptions): Promise<CoordinateResult> => {
  const now = deps.clock.now();
  const loads = await Promise.all(
    allShards().map(
      async (shard): Promise<ShardLoad> => ({ shard, ...(await deps.repo.dueSummary(shard, isoSeconds(now), DUE_COUNT_LIMIT)) }),
    ),
  );
  const plan = planDispatch(loads, options.fanOut ? options.workers : 0, options.budget);
  const own = [...plan.own];
  const fannedOut: number[][] = [];
  let sendError: unknown;
  const by = new Date(options.workersStopAt).toISOString();
  await Promise.all(
    plan.messages.map(async (shards) => {
      try {
        if (options.fanOut) await sendBy(options.fanOut.send({ shards, by }), options, 'The dispatch queue');
        fannedOut.push(shards);
      } catch (error) {
        sendError ??= error;
        own.push(...shards);
      }
    }),
  );
  if (sendError !== undefined) {
    deps.log.error('Fanning out due shards failed; the coordinator drains them itself', {
      error: (sendError as Error).name,
      message: (sendError as Error).message,
    });
  }
  const progress = own.length > 0 ? await drain(deps, own, now, options) : newProgress();
  const oldest = Math.min(
    progress.oldestDue,
    ...loads.map((load) => (load.oldest ? Date.parse(load.oldest) : Number.POSITIVE_INFINITY)),
  );
  const lagSeconds = lagOf(now, oldest);
  deps.metrics.seconds(METRIC.dispatcherLag, lagSeconds);
  if (sendError !== undefined) throw sendError;
  return {
    created: progress.created,
    claimed: progress.claimed,
    lagSeconds,
    due: loads.reduce((sum, load) => sum + load.due, 0),
    own: own.sort((a, b) => a - b),
    fannedOut,
    stopped: progress.stopped,
  };
};
