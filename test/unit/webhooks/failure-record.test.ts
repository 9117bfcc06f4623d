import {
  AUTO_DISABLE_STREAK,
  type FailureRecord,
  isDisableDue,
  outcomeMessageId,
  withFinalFailure,
} from '../../../shared/domain/webhooks.js';

const NONE: FailureRecord = { streak: 0, since: null, recent: [], rev: null };
const at = (day: number, hour = 0) => `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;

/** Failures at these times, in order, from nothing. */
const failures = (...times: string[]): FailureRecord =>
  times.reduce((record, time, n) => withFinalFailure(record, time, `r${n}`), NONE);

describe('an endpoint failure record: the last 10 final failures, bounded', () => {
  test('counts the streak, keeps its start, and holds the times of the last 10 only', () => {
    const times = Array.from({ length: 15 }, (_, n) => at(1, n));
    const record = failures(...times);
    expect(record).toEqual({ streak: 15, since: at(1, 0), recent: times.slice(5), rev: 'r14' });
  });

  test('the rule: 10 of them and the first at or before now less D; a longer streak is judged by its last 10', () => {
    const ten = failures(at(1), ...Array.from({ length: 9 }, (_, n) => at(6, n)));
    expect(isDisableDue(ten, at(1))).toBe(true);
    expect(isDisableDue(ten, '2026-10-31T23:59:59Z')).toBe(false);
    expect(isDisableDue(failures(...Array.from({ length: 9 }, () => at(1))), at(20))).toBe(false);
    // 15: the first 5 on the 1st, the rest on the 7th: the streak began 6 days before the 7th, its last 10 did not.
    const fifteen = failures(...Array.from({ length: 5 }, () => at(1)), ...Array.from({ length: 10 }, (_, n) => at(7, n)));
    expect(fifteen.since).toBe(at(1));
    expect(isDisableDue(fifteen, at(2))).toBe(false);
  });

  test('an item of an earlier version (a count and its start only): the start kept, the others as failing now', () => {
    const nine = withFinalFailure({ streak: 9, since: at(1), recent: [], rev: null }, at(7), 'r');
    expect(nine.recent).toEqual([at(1), ...Array.from({ length: 9 }, () => at(7))]);
    expect(isDisableDue(nine, at(2))).toBe(true);
    const twelve = withFinalFailure({ streak: 12, since: at(1), recent: [], rev: null }, at(7), 'r');
    expect(twelve).toMatchObject({ streak: 13, since: at(1) });
    expect(twelve.recent).toEqual(Array.from({ length: AUTO_DISABLE_STREAK }, () => at(7)));
    expect(isDisableDue(twelve, at(2))).toBe(false);
  });
});

test("a run's outcome message id: msg_ and 32 base64url characters, its own, the same for the same run", () => {
  const id = outcomeMessageId('run_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  expect(id).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
  expect(outcomeMessageId('run_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(id);
  expect(outcomeMessageId('run_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB')).not.toBe(id);
});
