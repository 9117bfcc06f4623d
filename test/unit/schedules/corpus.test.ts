/** The schedule corpus (rows in corpus.ts): every accepted phrase and every rejection, checked. */
import { isoSeconds } from '../../../shared/domain/clock.js';
import { describeSchedule, nextRunOrNull, ScheduleError } from '../../../shared/schedules/index.js';
import { accepted, rejected, WED } from './corpus.js';
import { occurrencesAfter } from './rrule-oracle.js';

/** The runs from the first (a start date holds it back): it, then the engine's next ones, fewer when it ends. */
function runsFrom(info: Parameters<typeof nextRunOrNull>[0], first: string, count: number): string[] {
  const runs = [first];
  for (let run = nextRunOrNull(info, new Date(first)); run && runs.length < count; run = nextRunOrNull(info, run)) {
    runs.push(isoSeconds(run));
  }
  return runs;
}

describe('accepted phrases', () => {
  test('the corpus is large enough', () => {
    expect(accepted.length).toBeGreaterThanOrEqual(90);
  });

  test.each(accepted)('[$group] "$phrase"', ({ phrase, info, next, now, timezone }) => {
    const result = describeSchedule(phrase, { now: new Date(now), ...(timezone ? { timezone } : {}) });
    const { rrule, ...rest } = result.schedule_info;
    expect(rest).toEqual(info);
    expect(result.next_run_at).toBe(next);
    // rrule.test.ts says which schedules have one; here each that has one is read back (issue 46).
    expect(rrule === null || typeof rrule === 'string').toBe(true);
    if (rrule) expect(occurrencesAfter(rrule, new Date(now), 10)).toEqual(runsFrom(result.schedule_info, next, 10));
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
