/** The schedule corpus (rows in corpus.ts): every accepted phrase and every rejection, checked. */
import { describeSchedule, ScheduleError } from '../../../shared/schedules/index.js';
import { accepted, rejected, WED } from './corpus.js';

describe('accepted phrases', () => {
  test('the corpus is large enough', () => {
    expect(accepted.length).toBeGreaterThanOrEqual(90);
  });

  test.each(accepted)('[$group] "$phrase"', ({ phrase, info, next, now, timezone }) => {
    const result = describeSchedule(phrase, { now: new Date(now), ...(timezone ? { timezone } : {}) });
    expect(result.schedule_info).toEqual(info);
    expect(result.next_run_at).toBe(next);
  });
});

describe('rejected phrases', () => {
  test('the rejection list is large enough', () => {
    expect(rejected.length).toBeGreaterThanOrEqual(25);
  });

  test.each(rejected)('$phrase (timezone: $timezone)', ({ phrase, timezone, detail }) => {
    const options = { now: new Date(WED), ...(timezone !== undefined ? { timezone } : {}) };
    let caught: unknown;
    try {
      describeSchedule(phrase as string, options);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ScheduleError);
    const error = caught as ScheduleError;
    for (const fragment of detail) expect(error.detail).toContain(fragment);
    expect(error.message).toBe(error.detail);
  });
});
