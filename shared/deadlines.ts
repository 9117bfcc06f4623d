/**
 * Deadlines without a timer each. Whatever must end by a time (a DynamoDB call within its
 * request's deadline, a request's answer within its Lambda's timeout) joins one watch list,
 * which one interval sweeps every SWEEP_MS for as long as anything is on it. A timer per call,
 * per phase of calls or per request is an insertion in Node's timer lists and a clear (a create
 * made three: docs/performance.md, "One sweep for every deadline"); joining and leaving the
 * list is four assignments. An expiry is late by up to SWEEP_MS (and whatever the event loop runs
 * first), never early.
 */

/**
 * Something that must end by `at`, on the watch list while it runs. The list is intrusive (each
 * item holds its neighbours) rather than a Set: a long-lived Set or Map that short-lived
 * objects pass through makes them survive the young generation's collections, and with them
 * all they reach (docs/performance.md, "One sweep for every deadline").
 */
export abstract class Watched {
  /** Its neighbours on the list, while it is on it. */
  private before: Watched | undefined = undefined;
  private after: Watched | undefined = undefined;

  constructor(
    /** Epoch ms. */
    readonly at: number,
  ) {}

  /**
   * Called once, when `at` has passed while it is still watched: fails it. It must not throw: it
   * runs in the sweep's timer, where an exception would end the process.
   */
  abstract expire(): void;

  static watch(item: Watched): void {
    if (item.before !== undefined || first === item) return; // on the list already
    item.after = first;
    if (first !== undefined) first.before = item;
    first = item;
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, SWEEP_MS);
      // Not what keeps a process alive: a call under way has its socket, a Lambda its runtime.
      sweeper.unref();
    }
  }

  /** Takes it off the list; false if it was not on it (ended already, or expired). */
  static unwatch(item: Watched): boolean {
    if (item.before !== undefined) item.before.after = item.after;
    else if (first === item) first = item.after;
    else return false;
    if (item.after !== undefined) item.after.before = item.before;
    item.before = undefined;
    item.after = undefined;
    return true;
  }

  static due(now: number): Watched[] {
    const due: Watched[] = [];
    for (let item = first; item !== undefined; item = item.after) if (item.at <= now) due.push(item);
    return due;
  }
}

/** How often the list is swept while anything is on it: how late an expiry may be. */
export const SWEEP_MS = 50;

let first: Watched | undefined;
let sweeper: NodeJS.Timeout | undefined;

const sweep = (): void => {
  if (first === undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
    return;
  }
  // Collected first, then failed: failing one may end others (a request's other calls).
  for (const item of Watched.due(Date.now())) {
    if (Watched.unwatch(item)) item.expire();
  }
};

export const watch = (item: Watched): void => Watched.watch(item);

/** It ended (answered or failed): no longer watched. The sweep stops at its next turn once nothing is. */
export const unwatch = (item: Watched): void => {
  Watched.unwatch(item);
};

/**
 * A promise watched: rejected with `expired()` once `at` has passed. A class rather than an
 * object with a closure: under `npm start`, tsx names every closure made in an object literal
 * (a defineProperty per request).
 */
class Settling<T> extends Watched {
  constructor(
    at: number,
    private readonly reject: (error: unknown) => void,
    private readonly expired: () => Error,
  ) {
    super(at);
  }

  expire(): void {
    this.reject(this.expired());
  }

  /** Settled as `work` settles, unless it expired first. */
  follow(work: Promise<T>, resolve: (value: T) => void): void {
    work.then(
      (value) => {
        unwatch(this);
        resolve(value);
      },
      (error: unknown) => {
        unwatch(this);
        this.reject(error);
      },
    );
  }
}

/**
 * What `work` settles to, or `expired()`'s error once `at` has passed (`work` is then left to
 * itself). No time (undefined), or one that is not finite, bounds nothing.
 */
export const settleBy = <T>(work: Promise<T>, at: number | undefined, expired: () => Error): Promise<T> =>
  at === undefined || !Number.isFinite(at)
    ? work
    : new Promise<T>((resolve, reject) => {
        const settling = new Settling<T>(at, reject, expired);
        watch(settling);
        settling.follow(work, resolve);
      });
