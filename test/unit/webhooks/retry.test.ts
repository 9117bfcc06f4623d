import { LOCAL_RETRY_POLICY, LOCAL_TIME_SCALE } from '../../../local/delivery-queue.js';
import { MAX_SQS_DELAY_SECONDS } from '../../../shared/queue/sqs-queue.js';
import { nominalDelaySeconds, RETRY_POLICY, retryDelaySeconds } from '../../../shared/webhooks/retry.js';

/** The waits between the attempts of a run that never gets through, with a fixed draw. */
const waits = (draw: number): number[] => {
  const result: number[] = [];
  for (let attempts = 1; ; attempts += 1) {
    const wait = retryDelaySeconds(attempts, () => draw);
    if (wait === null) return result;
    result.push(wait);
  }
};

describe('retry schedule', () => {
  test('deployed: 8 attempts over at least 24 hours even with the shortest draws', () => {
    expect(RETRY_POLICY.maxAttempts).toBe(8);
    const shortest = waits(0);
    expect(shortest).toHaveLength(RETRY_POLICY.maxAttempts - 1);
    const total = shortest.reduce((sum, wait) => sum + wait, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    const longest = waits(0.999_999_999).reduce((sum, wait) => sum + wait, 0);
    expect(longest).toBeLessThanOrEqual(31 * 3600);
  });

  test('follows the schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempts) => nominalDelaySeconds(attempts))).toEqual([
      5, 300, 1800, 7200, 18_000, 36_000, 36_000,
    ]);
    // npm start's policy grows exponentially from 30 s instead.
    expect([1, 2, 3].map((attempts) => nominalDelaySeconds(attempts, LOCAL_RETRY_POLICY))).toEqual([30, 60, 120]);
  });

  test('each wait is drawn within 10 % of its nominal wait (jitter)', () => {
    for (let attempts = 1; attempts < RETRY_POLICY.maxAttempts; attempts += 1) {
      const nominal = nominalDelaySeconds(attempts);
      for (const draw of [0, 0.25, 0.5, 0.75, 0.999]) {
        const wait = retryDelaySeconds(attempts, () => draw) as number;
        expect(wait).toBeGreaterThanOrEqual(nominal * 0.9);
        expect(wait).toBeLessThanOrEqual(nominal * 1.1);
      }
    }
    // A random source gone wrong cannot leave the bounds either.
    expect(retryDelaySeconds(1, () => -5)).toBeCloseTo(4.5);
    expect(retryDelaySeconds(1, () => 7)).toBeCloseTo(5.5);
    // Real draws differ: runs that failed together come back apart.
    const draws = new Set(Array.from({ length: 20 }, () => retryDelaySeconds(2)));
    expect(draws.size).toBeGreaterThan(1);
  });

  test('no wait after the last attempt: the run fails', () => {
    expect(retryDelaySeconds(RETRY_POLICY.maxAttempts - 1, () => 0)).not.toBeNull();
    expect(retryDelaySeconds(RETRY_POLICY.maxAttempts, () => 0)).toBeNull();
    expect(retryDelaySeconds(RETRY_POLICY.maxAttempts + 3, () => 0)).toBeNull();
    expect(retryDelaySeconds(1, () => 0, { ...RETRY_POLICY, maxAttempts: 1 })).toBeNull();
  });

  test('under npm start the first retry comes after about 1 s', () => {
    const first = [0, 0.5, 0.999].map(
      (draw) => (retryDelaySeconds(1, () => draw, LOCAL_RETRY_POLICY) as number) * LOCAL_TIME_SCALE,
    );
    for (const wait of first) {
      expect(wait).toBeGreaterThanOrEqual(0.5);
      expect(wait).toBeLessThanOrEqual(1);
    }
  });

  test('waits beyond what SQS can delay exist, and the SQS queue carries them (see sqs-queue tests)', () => {
    expect(Math.max(...waits(0.999))).toBeGreaterThan(MAX_SQS_DELAY_SECONDS);
  });
});
