/**
 * The delivery queue under `npm start` (deployed, SQS): an attempt is a timer in this
 * process. Every attempt runs on its own, so a slow endpoint holds up no other delivery, and
 * waits run `timeScale` times as long as asked (by default 1/30: the deployed schedule's 30 s
 * first retry comes after about 1 s, and a run fails after minutes rather than hours).
 *
 * Timers die with the process: a run still waiting for a retry when npm start stops stays
 * `pending`, and the next start tries it again at once (local/stack.ts; deployed, SQS keeps
 * the message and its delay).
 */
import type { DeliveryQueue } from '../shared/domain/webhooks.js';

export const LOCAL_TIME_SCALE = 1 / 30;

export interface LocalDeliveryQueueOptions {
  /** One attempt (deliverRun); resolves when it is recorded. */
  deliver: (runId: string) => Promise<unknown>;
  /** Multiplies every wait; default LOCAL_TIME_SCALE. */
  timeScale?: number;
  /** An attempt that threw (the store failed): tried again, as SQS would, up to MAX_TRIES times. */
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
    this.schedule(runId, delaySeconds, 1);
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

  private schedule(runId: string, delaySeconds: number, tryNumber: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.run(runId, tryNumber);
      },
      Math.max(0, delaySeconds * this.timeScale * 1000),
    );
    // A waiting retry never keeps the process alive; close() is what stops them.
    timer.unref();
    this.timers.add(timer);
  }

  private run(runId: string, tryNumber: number): void {
    if (this.closed) return;
    const attempt = Promise.resolve()
      .then(() => this.options.deliver(runId))
      .then(
        () => {},
        (error: unknown) => {
          (this.options.onError ?? defaultOnError)(runId, error);
          if (tryNumber < MAX_TRIES && !this.closed) this.schedule(runId, THROWN_RETRY_SECONDS, tryNumber + 1);
        },
      )
      .finally(() => this.inFlight.delete(attempt));
    this.inFlight.add(attempt);
  }
}

const defaultOnError = (runId: string, error: unknown): void => {
  console.error(`Delivering run ${runId} failed: ${(error as Error).message?.split('\n')[0] ?? String(error)}`);
};
