/**
 * What every DynamoDB call shares: the process's round-trip count and the error a call past its
 * request's deadline ends with. Counted in the client's HTTP handler (dynamo-client.ts), once
 * per attempt that goes over the network, without a middleware of our own on the SDK's stack.
 */

/**
 * Every DynamoDB call this process makes, by operation; read by tests and the benchmark.
 * `depth`: the longest chain of calls each made after the one before it had answered, so
 * calls side by side count once (tests assert how deep a request goes).
 */
export const roundTrips = {
  total: 0,
  byCommand: {} as Record<string, number>,
  depth: 0,
  /** The depth of the deepest call that has answered since the reset. */
  answeredDepth: 0,
  reset(): void {
    this.total = 0;
    this.byCommand = {};
    this.depth = 0;
    this.answeredDepth = 0;
  },
};

/** A call whose request's deadline passed before DynamoDB answered: a TimeoutError, so a 503 with Retry-After. */
export class DeadlineExceededError extends Error {
  constructor(command: string) {
    super(`DynamoDB did not answer ${command} before the request deadline`);
    this.name = 'TimeoutError';
  }
}

/** The SDK's attempts per call: the first and two retries, each within the handler's timeouts. */
export const MAX_ATTEMPTS = 3;

/** One attempt, counted: in the process, in the request's counter (if any), and how deep. */
export const countedAttempt = async <T>(commandName: string, send: () => Promise<T>, counter?: { count: number }): Promise<T> => {
  roundTrips.total += 1;
  roundTrips.byCommand[commandName] = (roundTrips.byCommand[commandName] ?? 0) + 1;
  if (counter) counter.count += 1;
  const depth = roundTrips.answeredDepth + 1;
  roundTrips.depth = Math.max(roundTrips.depth, depth);
  try {
    return await send();
  } finally {
    roundTrips.answeredDepth = Math.max(roundTrips.answeredDepth, depth);
  }
};
