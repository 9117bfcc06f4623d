/** The schedule corpus (rows in corpus.ts): every accepted phrase and every rejection, checked. */
import { describeSchedule, ScheduleError } from '../../../shared/schedules/index.js';
import { accepted, WED } from './corpus.js';

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

interface Rejection {
  phrase: unknown;
  timezone?: string;
  /** Fragments the detail must contain, usually the offending text in quotes. */
  detail: string[];
}

const rejected: Rejection[] = [
  { phrase: 'every blorpday', detail: ['Could not understand "every blorpday"'] },
  { phrase: 'every day at 25:00', detail: ['"25:00"'] },
  { phrase: 'every day at 24:00', detail: ['"24:00"'] },
  { phrase: 'every day at 13pm', detail: ['"13pm"'] },
  { phrase: 'every day at 9:5', detail: ['"9:5"'] },
  { phrase: 'every day at 9:00:30', detail: ['"9:00:30"'] },
  { phrase: 'every year on February 30', detail: ['"February 30"', 'not a valid date'] },
  { phrase: 'the 31st of April', detail: ['"April 31"'] },
  { phrase: 'the 32nd of every month', detail: ['"32nd"'] },
  { phrase: '0th of every month', detail: ['"0th"'] },
  { phrase: '6th monday of the month', detail: ['"6th monday"'] },
  { phrase: 'every weekday on Sunday', detail: ['"weekday"', '"Sunday"', 'contradict'] },
  { phrase: 'at 9am and 10pm every day', detail: ['"9am"', '"10pm"'] },
  { phrase: 'every day at 9pm in the morning', detail: ['"9pm"', '"morning"'] },
  { phrase: 'every day in the morning and in the evening', detail: ['"morning"', '"evening"'] },
  { phrase: '', detail: ['blank'] },
  { phrase: '   \n\t ', detail: ['blank'] },
  { phrase: `every day ${'x'.repeat(500)}`, detail: ['too long'] },
  { phrase: null, detail: ['must be a string'] },
  { phrase: 'every day', timezone: 'Mars/Olympus', detail: ['Unknown time zone "Mars/Olympus"'] },
  { phrase: 'every day at 9am Europe/Berlin', timezone: 'Mars/Olympus', detail: ['Unknown time zone "Mars/Olympus"'] },
  { phrase: 'every day', timezone: '', detail: ['Unknown time zone ""'] },
  { phrase: 'every day at 9am Mars/Olympus', detail: ['Unknown time zone "Mars/Olympus"'] },
  { phrase: 'every day at 9am IST', detail: ['Ambiguous time zone "IST"'] },
  { phrase: 'every day at 9am PST Europe/Berlin', detail: ['"PST"', '"Europe/Berlin"'] },
  { phrase: 'every day at 9am UTC+5:30', detail: ['"UTC+5:30"'] },
  { phrase: 'every hour', detail: ['"every hour"'] },
  { phrase: 'every 15 minutes', detail: ['"every 15 minutes"'] },
  { phrase: 'tomorrow at 9', detail: ['"tomorrow"', 'one-off'] },
  { phrase: 'next tuesday at 9', detail: ['"next"', 'one-off'] },
  { phrase: 'at 9am', detail: ['"at 9am"', 'how often'] },
  { phrase: 'every evening', detail: ['"evening"'] },
  { phrase: 'every last weekday of the month', detail: ['"last weekday"'] },
  { phrase: 'last business day of the month', detail: ['"last business day"'] },
  { phrase: 'every 0 days', detail: ['"every 0 days"'] },
  { phrase: 'every 400 days', detail: ['"every 400 days"'] },
  { phrase: 'every 2 quarters', detail: ['"every 2 quarters"'] },
  { phrase: 'every day on the 15th', detail: ['"every day"', '"15th"'] },
  { phrase: 'every week on the 15th', detail: ['"every week"', '"15th"'] },
  { phrase: 'every month on Monday', detail: ['"Monday"'] },
  { phrase: 'every year on the 15th', detail: ['"15th"'] },
  { phrase: 'every January', detail: ['"January"'] },
  { phrase: 'every Friday the 13th', detail: ['"Friday"', '"13th"'] },
  { phrase: 'first Monday and third Wednesday', detail: ['"first Monday"', '"third Wednesday"'] },
  { phrase: 'on the 1st and 15th of January and July', detail: ['not supported'] },
  { phrase: 'twice a week', detail: ['Could not understand "twice"'] },
  { phrase: 'every day except weekends', detail: ['"except"'] },
  { phrase: 'mondays 9', detail: ['"9"'] },
  { phrase: 'every 2 weeks and every 3 weeks', detail: ['"every 2 weeks"', '"every 3 weeks"'] },
  { phrase: 'quarter to 12am daily', detail: ['"quarter to 12am"'] },
  { phrase: '🙂 every day', detail: ['"🙂"'] },
  { phrase: 'it may run daily', detail: ['"it may"'] },
  { phrase: 'every Friday evening', detail: ['"evening"'] },
  { phrase: 'hourly', detail: ['"hourly"'] },
  { phrase: 'every day at 9am GMT+15', detail: ['"GMT+15"'] },
  { phrase: 'every Monday starting 30 November 2026', detail: ['"starting 30 November 2026"', 'needs an interval'] },
  {
    phrase: 'every 2 weeks on Monday starting Tuesday 30 November 2026',
    detail: ['"starting Tuesday 30 November 2026"', 'is a Monday, not a Tuesday'],
  },
  { phrase: 'every 2 weeks starting 31 November 2026', detail: ['"starting 31 November 2026" is not a valid date'] },
  { phrase: 'every 2 weeks starting soon', detail: ['Could not read the date after "starting"'] },
  { phrase: 'every 2 weeks starting 30 November', detail: ['Could not read the date after "starting"'] },
  // Issue 9, family 10: one-offs are refused, never turned into a recurrence.
  ...[
    ['this Tuesday at 4pm', '"this" (in "this Tuesday")'],
    ['next Friday', '"next" (in "next Friday")'],
    ['coming Monday at 8', '"coming" (in "coming Monday")'],
    ['this April', '"this" (in "this April")'],
    ['tomorrow', '"tomorrow"'],
    ['today at 5pm', '"today"'],
    ['tonight at 11', '"tonight"'],
    ['April 9th at 7am', '"April 9th"'],
    ['January 1st at midnight', '"January 1st"'],
    ['the 25th of December', '"25th of December"'],
    ['on 3 March at noon Europe/Berlin', '"3 March"'],
    ['the fourth Thursday of November', '"fourth Thursday of November"'],
    ['next month', '"next month"'],
    ['next Monday to Friday', '"next" (in "next Monday")'],
    ['April 9th 2027 at 7am', '"2027"'],
  ].map(([phrase, quoted]) => ({
    phrase,
    detail: [quoted as string, 'one-off', 'this describes one date; say "every ..." for a recurrence'],
  })),
  // Issue 9, family 8: times in more forms, and what still is not one.
  { phrase: 'every day at 2400 hrs', detail: ['Invalid time of day "2400 hrs"'] },
  { phrase: 'every day at 1260 hrs', detail: ['Invalid time of day "1260 hrs"'] },
  { phrase: 'every day at 12am (noon)', detail: ['"12am"', '"noon"', 'contradict'] },
  { phrase: 'every day at seven pm (midnight)', detail: ['"seven pm"', '"midnight"', 'contradict'] },
  { phrase: 'every day at half to 9', detail: ['"at half to 9"'] },
  { phrase: '9 to 5 weekdays', detail: ['"9 to 5"'] },
  { phrase: 'every day at 5 past 9', detail: ['"past 9"'] },
  { phrase: 'every day at thirteen', detail: ['"at thirteen"'] },
  { phrase: 'every day at 9 hrs', detail: ['"hrs"'] },
  { phrase: 'every day at quarter to twelve am', detail: ['"quarter to twelve am"'] },
  { phrase: 'every day at seven am and 9pm', detail: ['"seven am"', '"9pm"'] },
  // Issue 9, family 9: typos two edits away, too short, ambiguous, or real English words.
  { phrase: 'every munday', detail: ['"munday" could be Sunday or Monday'] },
  { phrase: 'every tursday', detail: ['"tursday" could be Tuesday or Thursday'] },
  { phrase: 'Thuesdays at 9', detail: ['"Thuesdays" could be Tuesday or Thursday'] },
  { phrase: 'every satrdy', detail: ['Could not understand "every satrdy"'] },
  { phrase: 'every juen 5', detail: ['"every juen 5"'] },
  { phrase: 'every day in marsh', detail: ['"in marsh"'] },
  { phrase: 'every sundry', detail: ['"every sundry"'] },
  { phrase: 'every match day', detail: ['"every match"'] },
  // Issue 9, family 6: ordinal weekdays that are no week of a month, or clash with the rest.
  { phrase: 'every 6th Monday', detail: ['"6th Monday" is not a week of the month'] },
  { phrase: 'every 4th Monday every week', detail: ['"every week"', '"4th Monday"', 'contradict'] },
  { phrase: 'every second Monday every 3 weeks', detail: ['"every 3 weeks"', '"second Monday"', 'contradict'] },
  { phrase: 'every 4th Monday on the 15th', detail: ['"4th Monday"', '"15th"', 'contradict'] },
  { phrase: 'every 4th weekday', detail: ['"4th weekday" (an nth working day) is not supported'] },
  { phrase: 'every 3rd Monday every year', detail: ['Say which month "3rd Monday" is in'] },
  { phrase: 'every fourth Monday and second Tuesday', detail: ['"fourth Monday"', '"second Tuesday"'] },
  // Issue 9, family 2: day numbers that are no day of a month, or clash with the rest.
  { phrase: 'day 32 of every month', detail: ['"32" is not a day of the month'] },
  { phrase: 'day 0 of every month', detail: ['"0" is not a day of the month'] },
  { phrase: 'every day 5', detail: ['Could not understand "5"'] },
  { phrase: 'days 5 and 20 of every week', detail: ['"every week"', 'contradict'] },
  { phrase: 'days 1 and Monday', detail: ['"Monday"', '"1"', 'contradict'] },
  { phrase: 'day 31 of April every year', detail: ['"April 31" is not a valid date'] },
  { phrase: 'on days 5 and 20 of January and July', detail: ['Several days in several months'] },
  { phrase: 'day 5 of March', detail: ['one-off', '"5 of March"'] },
  // Issue 9, family 5: exclusions with nothing to take from, and nth business days.
  { phrase: 'every weekday except Sunday', detail: ['"weekday"', '"except Sunday"', 'contradict'] },
  { phrase: 'every other day except Sunday', detail: ['"except Sunday" needs days', '"every other day"'] },
  { phrase: 'every month except Monday', detail: ['"except Monday" needs days', '"every month"'] },
  { phrase: 'except Sunday', detail: ['"except Sunday" needs days'] },
  { phrase: 'Mondays except Mondays', detail: ['"Mondays except Mondays" leaves no day to run'] },
  { phrase: 'every day except holidays', detail: ['Could not understand "except holidays"'] },
  { phrase: 'weekdays except weekdays', detail: ['"except" before "weekdays" is not supported'] },
  { phrase: 'the last working day of each month', detail: ['"last working day"', 'cannot express it exactly'] },
  { phrase: 'first business day of every month', detail: ['"first business day"', 'cannot express it exactly'] },
  // Issue 9, family 7: zones that are not exact, ambiguous or unknown.
  { phrase: 'every day at 9am UTC+5:30', detail: ['"UTC+5:30"', 'whole hours only'] },
  { phrase: 'every day at 9am GMT+5:45', detail: ['"GMT+5:45"', 'whole hours only'] },
  { phrase: 'every day at 9am Australia time', detail: ['"Australia time" is ambiguous', 'several time zones'] },
  { phrase: 'every day at 9am US time', detail: ['"US time" is ambiguous'] },
  { phrase: 'every day at 9am Spain time', detail: ['"Spain time" is ambiguous'] },
  { phrase: 'every day at 9am Blorp time', detail: ['Could not understand "Blorp"'] },
  { phrase: 'every day at 9 Paris time Europe/Berlin', detail: ['Conflicting time zones', '"Paris time"'] },
  { phrase: 'every day at 9 Paris time PST', detail: ['Conflicting time zones', '"Paris time"', '"PST"'] },
  // Issue 9, family 3 (part): cron wording that schedule_info cannot hold, or that is not a schedule.
  { phrase: 'At 09:00 AM, January through March', detail: ['Say which day of "January March"'] },
  { phrase: 'days 7-1', detail: ['"7-1" is not a range of days of the month'] },
  // Cron ORs day-of-month and day-of-week; schedule_info ANDs them: refused, not misread.
  { phrase: 'At 00:00 on day-of-month 1 and on Monday', detail: ['"Monday"', '"1"', 'contradict'] },
  { phrase: 'At every minute', detail: ['"every minute"', 'more frequent than once a day'] },
  { phrase: 'At 09:00 AM, on day 32 of the month', detail: ['"32" is not a day of the month'] },
  // Issue 9, family 4: cron and rate expressions schedule_info cannot hold.
  { phrase: 'rate(6 hours)', detail: ['"rate(6 hours)"', 'more frequent than once a day'] },
  { phrase: 'rate(1 day)', detail: ['"rate(1 day)"', 'no time of day', '"every day at 9am"'] },
  { phrase: '*/15 * * * *', detail: ['"*/15 * * * *"', 'more than once a day'] },
  { phrase: '0 9,17 * * *', detail: ['"0 9,17 * * *"', 'more than once a day'] },
  { phrase: '30 18 4 */2 *', detail: ['month field "*/2"'] },
  { phrase: '0 9 1 * 1', detail: ['"0 9 1 * 1"', 'either the day of the month or the weekday'] },
  { phrase: 'cron(0 9 1 * ? 2027)', detail: ['the year field must be "*"'] },
  { phrase: '9 30 * * *', detail: ['out of range'] },
  { phrase: '0 9 15W * *', detail: ['day-of-month field "15W"'] },
];

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
