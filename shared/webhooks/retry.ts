/**
 * When a failed delivery is tried again, in one pure function.
 *
 * Deployed, the waits follow a schedule that spans more than a day (Svix's spans about 27 h),
 * so a receiver down over a night or a weekend's morning still gets its messages:
 *
 * | after attempt | 1   | 2     | 3      | 4   | 5   | 6    | 7    | 8      |
 * | nominal wait  | 5 s | 5 min | 30 min | 2 h | 5 h | 10 h | 10 h | failed |
 *
 * Each wait is drawn within 10 % of its nominal wait (jitter: runs that failed together, in an
 * endpoint's outage, do not all come back at once), so 8 attempts span 24 h 49 min at least
 * and 30 h 20 min at most. SQS delays at most 15 minutes: its queue carries longer waits as
 * `not_before` and the consumer queues the message again until then (sqs-queue.ts).
 *
 * Under npm start the local policy grows exponentially instead, 30 s × 2^(n-1) drawn from the
 * upper half of each wait, and the local queue runs waits 30 times faster (about 1, 2, 4 ... s).
 */
export interface RetryPolicy {
  /** Attempts in all, the first one included; after the last the run is `failed`. */
  maxAttempts: number;
  baseSeconds: number;
  factor: number;
  capSeconds: number;
  /** The nominal waits after attempts 1, 2, ... (the last repeats); when given, base, factor and cap are unused. */
  schedule?: readonly number[];
}

/** The deployed schedule's waits, in seconds: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

export const RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseSeconds: 30,
  factor: 4,
  capSeconds: 3600,
  schedule: RETRY_SCHEDULE,
};

/** A scheduled wait is drawn within this share of its nominal wait, either way. */
export const SCHEDULE_JITTER = 0.1;

/** The nominal wait after `attempts` failed attempts (exponential: the largest). */
export const nominalDelaySeconds = (attempts: number, policy: RetryPolicy = RETRY_POLICY): number => {
  if (policy.schedule && policy.schedule.length > 0)
    return policy.schedule[Math.min(Math.max(0, attempts - 1), policy.schedule.length - 1)] as number;
  return Math.min(policy.capSeconds, policy.baseSeconds * policy.factor ** Math.max(0, attempts - 1));
};

/** The shortest and the longest wait after `attempts` failed attempts. */
export const delayBounds = (attempts: number, policy: RetryPolicy = RETRY_POLICY): [number, number] => {
  const nominal = nominalDelaySeconds(attempts, policy);
  return policy.schedule ? [nominal * (1 - SCHEDULE_JITTER), nominal * (1 + SCHEDULE_JITTER)] : [nominal / 2, nominal];
};

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
  const [shortest, longest] = delayBounds(attempts, policy);
  const share = Math.min(Math.max(random(), 0), 1);
  return shortest + share * (longest - shortest);
};
