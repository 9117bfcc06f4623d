/**
 * The delivery queue under `npm start` (deployed, SQS): an attempt is a timer in this
 * process. Every attempt at an endpoint runs on its own, so a slow endpoint holds up no other
 * delivery; at most MAX_RUNNING run at once (each may hold a socket: 1,100 stalled endpoints
 * must not exhaust the process's file descriptors), at most MAX_PER_LANE of one organization,
 * and due jobs start organization by organization in turn. Waits run `timeScale` times as long as asked (by default 1/30: a 30 s wait passes in 1 s).
 * The local stack also retries on a schedule of its own, LOCAL_RETRY_POLICY: waits that
 * double from about 1 s (1, 2, 4, 8, 16, 32, 64 s), so a run is delivered or `failed` within
 * about two minutes instead of the deployed hours.
 *
 * Attempts run outside the request that queued them, as a Lambda consuming SQS would: each
 * with the deps the stack gives it (local/stack.ts), never the request's, whose deadline has
 * passed by the time a retry comes.
 *
 * Timers die with the process: a run still waiting for a retry when npm start stops stays
 * `pending`, and the next start tries it again at once (local/stack.ts; deployed, SQS keeps
 * the message and its delay). The queue also makes the rest of large meeting reports, a page
 * per message (enqueueMeetingFanOut); a page that had not run when the process stopped is
 * gone, and reporting the meeting again makes what is missing.
 */
import type { MeetingFanOut } from '../shared/domain/runs.js';
import type { DeliveryQueue, DeliveryTarget, RunStartTarget } from '../shared/domain/webhooks.js';
import { RETRY_POLICY, type RetryPolicy } from '../shared/webhooks/retry.js';

export const LOCAL_TIME_SCALE = 1 / 30;

/**
 * The retry schedule under npm start (the contract's "about 1, 2, 4, 8, 16, 32 s ..."): the
 * deployed policy's attempts and first wait, doubling instead of quadrupling. In deployed
 * seconds, like every delay the queue is given; LOCAL_TIME_SCALE makes 30 s of it 1 s.
 */
export const LOCAL_RETRY_POLICY: RetryPolicy = {
  maxAttempts: RETRY_POLICY.maxAttempts,
  baseSeconds: 30,
  factor: 2,
  capSeconds: 3600,
};

export interface LocalDeliveryQueueOptions {
  /** A run's delivery started (no target), or one attempt at one endpoint (handleDelivery); resolves when it is recorded. */
  deliver: (runId: string, target?: DeliveryTarget) => Promise<unknown>;
  /** A pending run's deliveries queued again after a restart (resumeRunDelivery); without it, deliver(runId). */
  resume?: (runId: string) => Promise<unknown>;
  /** Jobs under way at once, in all: each attempt may hold a socket, and a process has few (Lambda: 1,024). */
  maxRunning?: number;
  /** Jobs under way at once for one organization: its stalled endpoints never hold every slot. */
  maxPerLane?: number;
  /** One page of a meeting report's runs (continueMeetingFanOut); without it such a message is refused. */
  continueFanOut?: (task: MeetingFanOut) => Promise<unknown>;
  /** Multiplies every wait; default LOCAL_TIME_SCALE. */
  timeScale?: number;
  /**
   * An attempt (or a page of meeting runs, id `meeting <meeting_id>`) that threw (the store
   * failed): tried again, as SQS would, up to MAX_TRIES times. Default: a line on stderr.
   */
  onError?: (runId: string, error: unknown) => void;
}

/** Default MAX_RUNNING: well under a process's 1,024 file descriptors, with room for DynamoDB's sockets. */
export const MAX_RUNNING = 256;
/** Default maxPerLane: an organization's endpoints (at most 20) may all be sent to at once, no more. */
export const MAX_PER_LANE = 20;

/** Tries of an attempt that throws, like an SQS queue's maxReceiveCount before its dead-letter queue. */
export const MAX_TRIES = 5;
/** Wait before trying a thrown attempt again, like SQS's visibility timeout (then scaled). */
export const THROWN_RETRY_SECONDS = 30;

export class LocalDeliveryQueue implements DeliveryQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Jobs that are due, by lane (an organization; '' for meeting pages, resumes and starts whose organization was not given), served in turn. */
  private readonly lanes = new Map<string, { ready: { job: Job; tryNumber: number }[]; running: number }>();
  private readonly timeScale: number;
  private readonly maxRunning: number;
  private readonly maxPerLane: number;
  private closed = false;
  /** Jobs queued with no delay whose timer has not fired yet. */
  private startingNow = 0;

  constructor(private readonly options: LocalDeliveryQueueOptions) {
    this.timeScale = options.timeScale ?? LOCAL_TIME_SCALE;
    this.maxRunning = options.maxRunning ?? MAX_RUNNING;
    this.maxPerLane = options.maxPerLane ?? MAX_PER_LANE;
  }

  /** Whether a job runs or is due now (a retry waiting on its timer is not): tests wait for quiet. */
  get busy(): boolean {
    return this.startingNow > 0 || this.inFlight.size > 0 || [...this.lanes.values()].some((lane) => lane.ready.length > 0);
  }

  async enqueue(runId: string, delaySeconds: number, target?: DeliveryTarget | RunStartTarget): Promise<void> {
    if (this.closed) return;
    // A run's start waits in its organization's lane too (when the caller says whose it is):
    // one organization's burst of starts never holds up another's.
    const lane = target ? `org:${target.orgName}` : '';
    const job: Job = target?.endpointId
      ? {
          id: runId,
          lane,
          what: `Delivering run ${runId} to ${target.endpointId}`,
          work: () => this.options.deliver(runId, target),
        }
      : { id: runId, lane, what: `Delivering run ${runId}`, work: () => this.options.deliver(runId) };
    this.schedule(job, delaySeconds, 1);
  }

  /** Queues a pending run's deliveries again (after a restart: the timers died with the process). */
  async enqueueResume(runId: string): Promise<void> {
    if (this.closed) return;
    const { resume } = this.options;
    const work = resume ? () => resume(runId) : () => this.options.deliver(runId);
    this.schedule({ id: runId, lane: '', what: `Resuming run ${runId}`, work }, 0, 1);
  }

  /** A page of a meeting report's runs, made now, outside the request (like an attempt). */
  async enqueueMeetingFanOut(task: MeetingFanOut): Promise<void> {
    const { continueFanOut } = this.options;
    if (!continueFanOut) throw new Error('This delivery queue makes no meeting runs (LocalDeliveryQueueOptions.continueFanOut)');
    if (this.closed) return;
    const id = `meeting ${task.meeting.meeting_id}`;
    this.schedule({ id, lane: '', what: `Making the runs of ${id}`, work: () => continueFanOut(task) }, 0, 1);
  }

  /** Attempts waiting for their time (or for a slot), and attempts under way. */
  get size(): { waiting: number; running: number } {
    let ready = 0;
    for (const lane of this.lanes.values()) ready += lane.ready.length;
    return { waiting: this.timers.size + ready, running: this.inFlight.size };
  }

  /** Stops every waiting attempt and waits for those under way; later enqueues are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.lanes.clear();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private schedule(job: Job, delaySeconds: number, tryNumber: number): void {
    const now = delaySeconds <= 0;
    if (now) this.startingNow += 1;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (now) this.startingNow -= 1;
        this.ready(job, tryNumber);
      },
      Math.max(0, delaySeconds * this.timeScale * 1000),
    );
    // A waiting retry never keeps the process alive; close() is what stops them.
    timer.unref();
    this.timers.add(timer);
  }

  private ready(job: Job, tryNumber: number): void {
    if (this.closed) return;
    let lane = this.lanes.get(job.lane);
    if (!lane) {
      lane = { ready: [], running: 0 };
      this.lanes.set(job.lane, lane);
    }
    lane.ready.push({ job, tryNumber });
    this.pump();
  }

  /** Starts due jobs while there is room, one lane after another, so no lane starves the rest. */
  private pump(): void {
    while (this.inFlight.size < this.maxRunning) {
      let next: [string, { job: Job; tryNumber: number }] | undefined;
      for (const [name, lane] of this.lanes) {
        if (lane.ready.length === 0 || lane.running >= this.maxPerLane) continue;
        next = [name, lane.ready.shift() as { job: Job; tryNumber: number }];
        lane.running += 1;
        // To the back of the round: the next start goes to another lane first.
        this.lanes.delete(name);
        this.lanes.set(name, lane);
        break;
      }
      if (!next) return;
      this.run(next[1].job, next[1].tryNumber);
    }
  }

  private run(job: Job, tryNumber: number): void {
    if (this.closed) return;
    const attempt = Promise.resolve()
      .then(job.work)
      .then(
        () => {},
        (error: unknown) => {
          if (this.options.onError) this.options.onError(job.id, error);
          else console.error(`${job.what} failed: ${(error as Error).message?.split('\n')[0] ?? String(error)}`);
          if (tryNumber < MAX_TRIES && !this.closed) this.schedule(job, THROWN_RETRY_SECONDS, tryNumber + 1);
        },
      )
      .finally(() => {
        this.inFlight.delete(attempt);
        const lane = this.lanes.get(job.lane);
        if (lane) {
          lane.running -= 1;
          if (lane.running === 0 && lane.ready.length === 0) this.lanes.delete(job.lane);
        }
        this.pump();
      });
    this.inFlight.add(attempt);
  }
}

/** A message of the queue: a delivery attempt (id: the run's) or a page of meeting runs. */
interface Job {
  /** What onError is told: the run id, or `meeting <meeting_id>`. */
  id: string;
  /** Whose turn it waits for: an organization's, or '' for the rest. */
  lane: string;
  /** What the log says failed. */
  what: string;
  work: () => Promise<unknown>;
}
