/**
 * When a failed delivery is tried again: exponential backoff with jitter, in one pure function.
 *
 * The nominal wait after the n-th failed attempt is base × factor^(n-1), capped; the actual
 * wait is drawn uniformly from its upper half ("equal jitter"). Jitter spreads the retries of
 * many runs that failed together (an endpoint's outage) so they do not all come back at
 * once; keeping the lower half out ("full jitter" draws from zero) is what lets the schedule
 * promise a minimum: 8 attempts spread over at least 1 h 51 min, 3 h 43 min at most.
 *
 * | after attempt | 1    | 2     | 3     | 4      | 5   | 6   | 7   | 8      |
 * | nominal wait  | 30 s | 2 min | 8 min | 32 min | 1 h | 1 h | 1 h | failed |
 *
 * Under npm start the local queue runs these waits 30 times faster (the first retry after
 * about 1 s); SQS delays at most 15 minutes, so its queue re-queues longer waits itself.
 */
export interface RetryPolicy {
  /** Attempts in all, the first one included; after the last the run is `failed`. */
  maxAttempts: number;
  baseSeconds: number;
  factor: number;
  capSeconds: number;
}

export const RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseSeconds: 30, factor: 4, capSeconds: 3600 };

/** The nominal (largest) wait after `attempts` failed attempts. */
export const nominalDelaySeconds = (attempts: number, policy: RetryPolicy = RETRY_POLICY): number =>
  Math.min(policy.capSeconds, policy.baseSeconds * policy.factor ** Math.max(0, attempts - 1));

/**
 * Seconds to wait before the next attempt, after `attempts` attempts that did not deliver;
 * null when that was the last allowed. `random` returns [0, 1), like Math.random.
 */
export const retryDelaySeconds = (
  attempts: number,
  random: () => number = Math.random,
  policy: RetryPolicy = RETRY_POLICY,
): number | null => {
  if (attempts >= policy.maxAttempts) return null;
  const nominal = nominalDelaySeconds(attempts, policy);
  const share = Math.min(Math.max(random(), 0), 1);
  return nominal / 2 + (share * nominal) / 2;
};
