/**
 * The process's one watch list (shared/deadlines.ts): what must end by a time fails once it has
 * passed, never before and at most one sweep late, with no timer of its own and none left
 * running once nothing is watched. A fake clock drives time (Date.now and the interval).
 */
import { jest } from '@jest/globals';
import { SWEEP_MS, settleBy, unwatch, Watched, watch } from '../../shared/deadlines.js';
import { sweepOnFakeClock } from '../support/sweep-clock.js';

/** Something watched that does what it is told when it expires. */
class Item extends Watched {
  constructor(
    at: number,
    readonly onExpire: () => void,
  ) {
    super(at);
  }
  expire(): void {
    this.onExpire();
  }
}

sweepOnFakeClock();

const expired = () => new Error('too late');

/** The state of a promise once the microtasks queued so far have run. */
const stateOf = async (promise: Promise<unknown>): Promise<string> => {
  const pending = Symbol('pending');
  const first = await Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    Promise.resolve(pending),
  ]);
  return first === pending ? 'pending' : (first as string);
};

test('what settles in time passes through, value or error, and leaves no timer running', async () => {
  const at = Date.now() + 1_000;
  await expect(settleBy(Promise.resolve(42), at, expired)).resolves.toBe(42);
  const failure = new Error('its own');
  await expect(settleBy(Promise.reject(failure), at, expired)).rejects.toBe(failure);
  expect(jest.getTimerCount()).toBe(1); // the sweep, until its next turn finds nothing
});

test('what is still running fails with its own error once its time has passed, never before, within one sweep', async () => {
  const at = Date.now() + 120;
  const never = new Promise<never>(() => {});
  const bounded = settleBy(never, at, expired);
  bounded.catch(() => {});
  jest.advanceTimersByTime(119);
  expect(await stateOf(bounded)).toBe('pending');
  jest.advanceTimersByTime(1 + SWEEP_MS);
  await expect(bounded).rejects.toThrow('too late');
});

test('a time already past fails at the next sweep', async () => {
  const bounded = settleBy(new Promise<never>(() => {}), Date.now() - 1, expired);
  bounded.catch(() => {});
  jest.advanceTimersByTime(SWEEP_MS);
  await expect(bounded).rejects.toThrow('too late');
});

test('a thousand things watched at once share one timer, and each fails at its own time', () => {
  const start = Date.now();
  const expired: { at: number; when: number }[] = [];
  const items = Array.from({ length: 1_000 }, (_, i) => {
    const at = start + 10 * (i + 1);
    return new Item(at, () => expired.push({ at, when: Date.now() }));
  });
  for (const item of items) watch(item);
  expect(jest.getTimerCount()).toBe(1);
  // Half of them end on their own (answered): those never expire.
  for (const item of items.filter((_, i) => i % 2 === 1)) unwatch(item);
  jest.advanceTimersByTime(10 * 1_000 + SWEEP_MS);
  expect(expired.map(({ at }) => at).sort((a, b) => a - b)).toEqual(items.filter((_, i) => i % 2 === 0).map(({ at }) => at));
  for (const { at, when } of expired) {
    expect(when).toBeGreaterThanOrEqual(at);
    expect(when - at).toBeLessThanOrEqual(SWEEP_MS);
  }
});

test('what ends while the sweep runs is not failed', () => {
  const start = Date.now();
  const ended: string[] = [];
  // The first to expire ends the second (a request failing its other calls): the second must not expire too.
  const second = new Item(start + 10, () => ended.push('second expired'));
  const first = new Item(start + 10, () => {
    ended.push('first expired');
    unwatch(second);
  });
  // The list is swept newest first.
  watch(second);
  watch(first);
  jest.advanceTimersByTime(SWEEP_MS);
  expect(ended).toEqual(['first expired']);
});

test('watched twice, it is on the list once: it expires once, and one unwatch takes it off', () => {
  const start = Date.now();
  let expiries = 0;
  const twice = new Item(start + 10, () => {
    expiries += 1;
  });
  const other = new Item(start + 10, () => {});
  watch(twice);
  watch(other);
  watch(twice);
  jest.advanceTimersByTime(SWEEP_MS);
  expect(expiries).toBe(1);
  const again = new Item(start + 1_000, () => {
    expiries += 1;
  });
  watch(again);
  watch(again);
  unwatch(again);
  jest.advanceTimersByTime(2_000);
  expect(expiries).toBe(1);
});
