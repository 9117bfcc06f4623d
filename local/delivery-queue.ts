/**
 * The delivery queue under `npm start` (deployed, SQS): an attempt is a timer in this
 * process. Every attempt runs on its own, so a slow endpoint holds up no other delivery, and
 * waits run `timeScale` times as long as asked (by default 1/30: a 30 s wait passes in 1 s).
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
import type { DeliveryQueue } from '../shared/domain/webhooks.js';
import { RETRY_POLICY, type RetryPolicy } from '../shared/webhooks/retry.js';

export const LOCAL_TIME_SCALE = 1 / 30;

/**
 * The retry schedule under npm start (the contract's "about 1, 2, 4, 8, 16, 32 s ..."): the
 * deployed policy's attempts and first wait, doubling instead of quadrupling. In deployed
 * seconds, like every delay the queue is given; LOCAL_TIME_SCALE makes 30 s of it 1 s.
 */
export const LOCAL_RETRY_POLICY: RetryPolicy = { ...RETRY_POLICY, factor: 2 };

export interface LocalDeliveryQueueOptions {
  /** One attempt (deliverRun); resolves when it is recorded. */
  deliver: (runId: string) => Promise<unknown>;
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

/** Tries of an attempt that throws, like an SQS queue's maxReceiveCount before its dead-letter queue. */
export const MAX_TRIES = 5;
/** Wait before trying a thrown attempt again, like SQS's visibility timeout (then scaled). */
export const THROWN_RETRY_SECONDS = 30;

export class LocalDeliveryQueue implements DeliveryQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timeScale: number;
  private closed = false;

  constructor(private readonly options: LocalDeliveryQueueOptions) {
    this.timeScale = options.timeScale ?? LOCAL_TIME_SCALE;
  }

  async enqueue(runId: string, delaySeconds: number): Promise<void> {
    if (this.closed) return;
    this.schedule({ id: runId, what: `Delivering run ${runId}`, work: () => this.options.deliver(runId) }, delaySeconds, 1);
  }

  /** A page of a meeting report's runs, made now, outside the request (like an attempt). */
  async enqueueMeetingFanOut(task: MeetingFanOut): Promise<void> {
    const { continueFanOut } = this.options;
    if (!continueFanOut) throw new Error('This delivery queue makes no meeting runs (LocalDeliveryQueueOptions.continueFanOut)');
    if (this.closed) return;
    const id = `meeting ${task.meeting.meeting_id}`;
    this.schedule({ id, what: `Making the runs of ${id}`, work: () => continueFanOut(task) }, 0, 1);
  }

  /** Attempts waiting for their time, and attempts under way. */
  get size(): { waiting: number; running: number } {
    return { waiting: this.timers.size, running: this.inFlight.size };
  }

  /** Stops every waiting attempt and waits for those under way; later enqueues are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private schedule(job: Job, delaySeconds: number, tryNumber: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.run(job, tryNumber);
      },
      Math.max(0, delaySeconds * this.timeScale * 1000),
    );
    // A waiting retry never keeps the process alive; close() is what stops them.
    timer.unref();
    this.timers.add(timer);
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
      .finally(() => this.inFlight.delete(attempt));
    this.inFlight.add(attempt);
  }
}

/** A message of the queue: a delivery attempt (id: the run's) or a page of meeting runs. */
interface Job {
  /** What onError is told: the run id, or `meeting <meeting_id>`. */
  id: string;
  /** What the log says failed. */
  what: string;
  work: () => Promise<unknown>;
}
