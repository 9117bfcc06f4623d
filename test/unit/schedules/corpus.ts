/**
 * Table-driven corpus for natural-language schedules. Every expected value below was worked out
 * by hand from a calendar (weekdays, DST dates, offsets), not produced by the code under test.
 *
 * Calendar facts used:
 * - 2026-03-04 is a Wednesday; March 2026 starts on a Sunday, April 2026 on a Wednesday.
 * - US DST 2026: starts Sun 2026-03-08 02:00 EST (07:00Z), ends Sun 2026-11-01 02:00 EDT (06:00Z).
 * - EU DST 2026: starts Sun 2026-03-29 01:00Z, ends Sun 2026-10-25 01:00Z.
 * - Sydney leaves DST on Sun 2026-04-05; Auckland is on NZDT (+13) in January.
 * - 2027-01-01 is a Friday, 2027-02-01 a Monday; 2028 is a leap year.
 *
 * A module of its own so english.test.ts can say every accepted row back and read it again.
 */
import type { ScheduleInfo } from '../../../shared/schedules/index.js';
import { scheduleInfo } from '../../support/schedule-info.js';

type Info = ScheduleInfo;

const WEEKDAYS = [1, 2, 3, 4, 5];

const daily = (time: string, x: Partial<Info> = {}): Info => scheduleInfo({ schedule_time: time, ...x });
const weekly = (days: number[], time: string, x: Partial<Info> = {}): Info =>
  scheduleInfo({ schedule_type: 'weekly', schedule_time: time, days_of_week: days, ...x });
const monthly = (time: string, x: Partial<Info>): Info => scheduleInfo({ schedule_type: 'monthly', schedule_time: time, ...x });
const yearly = (months: number[], time: string, x: Partial<Info>): Info =>
  scheduleInfo({ schedule_type: 'yearly', schedule_time: time, months_of_year: months, ...x });

/** Every N hours / minutes from `start` (to `end`, or midnight when null), on every day unless `x` says. */
const hourly = (interval: number, start: string, end: string | null, x: Partial<Info> = {}): Info =>
  scheduleInfo({ schedule_type: 'hourly', schedule_time: start, end_time: end, interval, ...x });
const minutely = (interval: number, start: string, end: string | null, x: Partial<Info> = {}): Info =>
  scheduleInfo({ schedule_type: 'minutely', schedule_time: start, end_time: end, interval, ...x });

/** Issue 46: one run on `date` at `time`. */
const once = (date: string, time: string, x: Partial<Info> = {}): Info =>
  scheduleInfo({ schedule_type: 'once', schedule_time: time, anchor_date: date, ...x });

export type Row = [phrase: string, info: Info, nextRunAt: string];

export interface Group {
  name: string;
  now: string;
  timezone?: string;
  rows: Row[];
}

export const WED = '2026-03-04T10:00:00Z'; // Wednesday 4 March 2026, 10:00 UTC

export const groups: Group[] = [
  {
    name: 'daily and times of day',
    now: WED,
    rows: [
      ['every day', daily('09:00'), '2026-03-05T09:00:00Z'],
      ['daily at 9am', daily('09:00'), '2026-03-05T09:00:00Z'],
      ['each morning at 8', daily('08:00'), '2026-03-05T08:00:00Z'],
      ['every day at 10:30', daily('10:30'), '2026-03-04T10:30:00Z'],
      ['every day at 10:00', daily('10:00'), '2026-03-05T10:00:00Z'], // strictly after now
      ['everyday at 7pm', daily('19:00'), '2026-03-04T19:00:00Z'],
      ['every day at noon', daily('12:00'), '2026-03-04T12:00:00Z'],
      ['every day at midnight', daily('00:00'), '2026-03-05T00:00:00Z'],
      ['every day at 9:30 in the morning', daily('09:30'), '2026-03-05T09:30:00Z'],
      ['Every day at 5PM', daily('17:00'), '2026-03-04T17:00:00Z'],
      ['every day at 17:45', daily('17:45'), '2026-03-04T17:45:00Z'],
      ['every evening at 8', daily('20:00'), '2026-03-04T20:00:00Z'],
      ['every night at 11', daily('23:00'), '2026-03-04T23:00:00Z'],
      ['nightly at 2', daily('02:00'), '2026-03-05T02:00:00Z'],
      ['every afternoon at 3', daily('15:00'), '2026-03-04T15:00:00Z'],
      ['at 8 in the evening every day', daily('20:00'), '2026-03-04T20:00:00Z'],
      ['half past 9 every day', daily('09:30'), '2026-03-05T09:30:00Z'],
      ['quarter to 6 in the evening, daily', daily('17:45'), '2026-03-04T17:45:00Z'],
      ['every day at 12am', daily('00:00'), '2026-03-05T00:00:00Z'],
      ['every day at 12pm', daily('12:00'), '2026-03-04T12:00:00Z'],
      ['every day at 7.30pm', daily('19:30'), '2026-03-04T19:30:00Z'],
      ['every day at 12 noon', daily('12:00'), '2026-03-04T12:00:00Z'],
      ['at 0930 every day', daily('09:30'), '2026-03-05T09:30:00Z'],
      ["each day at 9 o'clock", daily('09:00'), '2026-03-05T09:00:00Z'],
      ['every morning', daily('09:00'), '2026-03-05T09:00:00Z'],
      ['Run please, every day @ 6 a.m.', daily('06:00'), '2026-03-05T06:00:00Z'],
      ['every day at 9:00:00', daily('09:00'), '2026-03-05T09:00:00Z'],
      ['once a day at 23:59', daily('23:59'), '2026-03-04T23:59:00Z'],
    ],
  },
  {
    name: 'weekly',
    now: WED,
    rows: [
      ['every weekday', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['weekdays at 10:15', weekly(WEEKDAYS, '10:15'), '2026-03-04T10:15:00Z'],
      ['every weekend at 10', weekly([0, 6], '10:00'), '2026-03-07T10:00:00Z'],
      ['weekends', weekly([0, 6], '09:00'), '2026-03-07T09:00:00Z'],
      ['Mondays and Thursdays', weekly([1, 4], '09:00'), '2026-03-05T09:00:00Z'],
      ['Tue, Wed at 5pm', weekly([2, 3], '17:00'), '2026-03-04T17:00:00Z'],
      ['every Monday at 9 a.m.', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      ['Mon-Fri at 08:30', weekly(WEEKDAYS, '08:30'), '2026-03-05T08:30:00Z'],
      ['monday through friday at 7.30pm', weekly(WEEKDAYS, '19:30'), '2026-03-04T19:30:00Z'],
      ['from Monday to Friday at 6pm', weekly(WEEKDAYS, '18:00'), '2026-03-04T18:00:00Z'],
      ['Friday to Monday at 10', weekly([0, 1, 5, 6], '10:00'), '2026-03-06T10:00:00Z'],
      ['every business day at 9', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['every Sunday', weekly([0], '09:00'), '2026-03-08T09:00:00Z'],
      ['Saturdays at noon', weekly([6], '12:00'), '2026-03-07T12:00:00Z'],
      ['every Tuesday and Thursday at 12 noon', weekly([2, 4], '12:00'), '2026-03-05T12:00:00Z'],
      ['weekly', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      ['weekly on Wednesday at 11', weekly([3], '11:00'), '2026-03-04T11:00:00Z'],
      ['please run this knap every weekday morning at 7:15', weekly(WEEKDAYS, '07:15'), '2026-03-05T07:15:00Z'],
      ['every Friday afternoon at 4', weekly([5], '16:00'), '2026-03-06T16:00:00Z'],
      ['daily on weekdays at 9', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['every Monday, Wednesday, and Friday at 8:30am', weekly([1, 3, 5], '08:30'), '2026-03-06T08:30:00Z'],
      ['mon/wed/fri at 9', weekly([1, 3, 5], '09:00'), '2026-03-06T09:00:00Z'],
      ['once a week on Thursday', weekly([4], '09:00'), '2026-03-05T09:00:00Z'],
      ['every Wednesday at 9:59', weekly([3], '09:59'), '2026-03-11T09:59:00Z'],
    ],
  },
  {
    name: 'intervals (anchored on the first run)',
    now: WED,
    rows: [
      ['every other Friday', weekly([5], '09:00', { interval: 2, anchor_date: '2026-03-06' }), '2026-03-06T09:00:00Z'],
      ['every 2 weeks on Monday', weekly([1], '09:00', { interval: 2, anchor_date: '2026-03-09' }), '2026-03-09T09:00:00Z'],
      ['every 3 days', daily('09:00', { interval: 3, anchor_date: '2026-03-05' }), '2026-03-05T09:00:00Z'],
      ['every other day at 6pm', daily('18:00', { interval: 2, anchor_date: '2026-03-04' }), '2026-03-04T18:00:00Z'],
      ['every 2 weeks', weekly([1], '09:00', { interval: 2, anchor_date: '2026-03-09' }), '2026-03-09T09:00:00Z'],
      ['fortnightly on Thursday', weekly([4], '09:00', { interval: 2, anchor_date: '2026-03-05' }), '2026-03-05T09:00:00Z'],
      ['biweekly on Friday at 3pm', weekly([5], '15:00', { interval: 2, anchor_date: '2026-03-06' }), '2026-03-06T15:00:00Z'],
      ['every second Tuesday', weekly([2], '09:00', { interval: 2, anchor_date: '2026-03-10' }), '2026-03-10T09:00:00Z'],
      [
        'every 2 months on the 1st',
        monthly('09:00', { days_of_month: [1], interval: 2, anchor_date: '2026-04-01' }),
        '2026-04-01T09:00:00Z',
      ],
      [
        'every 3 months on the 15th',
        monthly('09:00', { days_of_month: [15], interval: 3, anchor_date: '2026-03-15' }),
        '2026-03-15T09:00:00Z',
      ],
      [
        'every 2 years on March 3',
        yearly([3], '09:00', { days_of_month: [3], interval: 2, anchor_date: '2027-03-03' }),
        '2027-03-03T09:00:00Z',
      ],
      [
        'every other month on the first Monday',
        monthly('09:00', { days_of_week: [1], weeks_of_month: [1], interval: 2, anchor_date: '2026-04-06' }),
        '2026-04-06T09:00:00Z',
      ],
      [
        'every 2 weeks on Monday and Thursday',
        weekly([1, 4], '09:00', { interval: 2, anchor_date: '2026-03-05' }),
        '2026-03-05T09:00:00Z',
      ],
      [
        'every two weeks on tuesday at 10',
        weekly([2], '10:00', { interval: 2, anchor_date: '2026-03-10' }),
        '2026-03-10T10:00:00Z',
      ],
      [
        'every 6 months',
        monthly('09:00', { days_of_month: [1], interval: 6, anchor_date: '2026-04-01' }),
        '2026-04-01T09:00:00Z',
      ],
      ['every 2nd day', daily('09:00', { interval: 2, anchor_date: '2026-03-05' }), '2026-03-05T09:00:00Z'],
    ],
  },
  {
    name: 'monthly',
    now: WED,
    rows: [
      ['on the 15th of every month', monthly('09:00', { days_of_month: [15] }), '2026-03-15T09:00:00Z'],
      ['the 1st and 15th', monthly('09:00', { days_of_month: [1, 15] }), '2026-03-15T09:00:00Z'],
      ['last day of the month', monthly('09:00', { days_of_month: [-1] }), '2026-03-31T09:00:00Z'],
      ['first Monday of every month', monthly('09:00', { days_of_week: [1], weeks_of_month: [1] }), '2026-04-06T09:00:00Z'],
      ['last Friday of the month', monthly('09:00', { days_of_week: [5], weeks_of_month: [-1] }), '2026-03-27T09:00:00Z'],
      ['on the 15 of every month', monthly('09:00', { days_of_month: [15] }), '2026-03-15T09:00:00Z'],
      ['monthly', monthly('09:00', { days_of_month: [1] }), '2026-04-01T09:00:00Z'],
      ['monthly on the 4th at 11am', monthly('11:00', { days_of_month: [4] }), '2026-03-04T11:00:00Z'],
      ['the 1st, 10th and 20th of each month', monthly('09:00', { days_of_month: [1, 10, 20] }), '2026-03-10T09:00:00Z'],
      [
        'second and fourth Tuesday of every month at 14:00',
        monthly('14:00', { days_of_week: [2], weeks_of_month: [2, 4] }),
        '2026-03-10T14:00:00Z',
      ],
      ['every second Tuesday of the month', monthly('09:00', { days_of_week: [2], weeks_of_month: [2] }), '2026-03-10T09:00:00Z'],
      ['first and third Monday', monthly('09:00', { days_of_week: [1], weeks_of_month: [1, 3] }), '2026-03-16T09:00:00Z'],
      [
        'third Wednesday of the month at 8am',
        monthly('08:00', { days_of_week: [3], weeks_of_month: [3] }),
        '2026-03-18T08:00:00Z',
      ],
      ['end of every month at 6pm', monthly('18:00', { days_of_month: [-1] }), '2026-03-31T18:00:00Z'],
      ['twenty-first of every month', monthly('09:00', { days_of_month: [21] }), '2026-03-21T09:00:00Z'],
      ['the first of the month', monthly('09:00', { days_of_month: [1] }), '2026-04-01T09:00:00Z'],
      ['fifth Sunday of the month', monthly('09:00', { days_of_week: [0], weeks_of_month: [5] }), '2026-03-29T09:00:00Z'],
      ['on the 31st', monthly('09:00', { days_of_month: [31] }), '2026-03-31T09:00:00Z'],
      ['every 2nd and 4th Friday', monthly('09:00', { days_of_week: [5], weeks_of_month: [2, 4] }), '2026-03-13T09:00:00Z'],
      ['once a month on the 1st and the last day', monthly('09:00', { days_of_month: [1, -1] }), '2026-03-31T09:00:00Z'],
    ],
  },
  {
    name: 'quarterly',
    now: WED,
    rows: [
      [
        'first day of every quarter',
        monthly('09:00', { days_of_month: [1], months_of_year: [1, 4, 7, 10] }),
        '2026-04-01T09:00:00Z',
      ],
      ['quarterly', monthly('09:00', { days_of_month: [1], months_of_year: [1, 4, 7, 10] }), '2026-04-01T09:00:00Z'],
      [
        'last day of the quarter',
        monthly('09:00', { days_of_month: [-1], months_of_year: [3, 6, 9, 12] }),
        '2026-03-31T09:00:00Z',
      ],
      [
        'first Monday of every quarter',
        monthly('09:00', { days_of_week: [1], weeks_of_month: [1], months_of_year: [1, 4, 7, 10] }),
        '2026-04-06T09:00:00Z',
      ],
      [
        'on the 15th of each quarter',
        monthly('09:00', { days_of_month: [15], months_of_year: [1, 4, 7, 10] }),
        '2026-04-15T09:00:00Z',
      ],
    ],
  },
  {
    name: 'yearly and month-restricted',
    now: WED,
    rows: [
      ['every year on March 3', yearly([3], '09:00', { days_of_month: [3] }), '2027-03-03T09:00:00Z'],
      ['annually on Dec 25', yearly([12], '09:00', { days_of_month: [25] }), '2026-12-25T09:00:00Z'],
      ['25 December every year', yearly([12], '09:00', { days_of_month: [25] }), '2026-12-25T09:00:00Z'],
      ['every year on the 4th of March at 11', yearly([3], '11:00', { days_of_month: [4] }), '2026-03-04T11:00:00Z'],
      ['yearly', yearly([1], '09:00', { days_of_month: [1] }), '2027-01-01T09:00:00Z'],
      [
        'every year on the fourth Thursday of November',
        yearly([11], '09:00', { days_of_week: [4], weeks_of_month: [4] }),
        '2026-11-26T09:00:00Z',
      ],
      // Was 'January 1st at midnight': a bare date is one date, refused since issue 9 (family 10).
      ['every January 1st at midnight', yearly([1], '00:00', { days_of_month: [1] }), '2027-01-01T00:00:00Z'],
      ['on the 1st of January and July', yearly([1, 7], '09:00', { days_of_month: [1] }), '2026-07-01T09:00:00Z'],
      ['every year on the last day of February', yearly([2], '09:00', { days_of_month: [-1] }), '2027-02-28T09:00:00Z'],
      ['every Feb 29', yearly([2], '09:00', { days_of_month: [29] }), '2028-02-29T09:00:00Z'],
      [
        'every year on the last Friday of October',
        yearly([10], '09:00', { days_of_week: [5], weeks_of_month: [-1] }),
        '2026-10-30T09:00:00Z',
      ],
      ['every March the 5th', yearly([3], '09:00', { days_of_month: [5] }), '2026-03-05T09:00:00Z'],
      ['annually on 3 March', yearly([3], '09:00', { days_of_month: [3] }), '2027-03-03T09:00:00Z'],
      ['5 May every year', yearly([5], '09:00', { days_of_month: [5] }), '2026-05-05T09:00:00Z'],
      ['every day in May at 8', daily('08:00', { months_of_year: [5] }), '2026-05-01T08:00:00Z'],
      ['every Monday in December', weekly([1], '09:00', { months_of_year: [12] }), '2026-12-07T09:00:00Z'],
      ['every day in January at 7', daily('07:00', { months_of_year: [1] }), '2027-01-01T07:00:00Z'],
      // "May" between two months is the month, not the verb.
      [
        'every Monday in April, May, June and July',
        weekly([1], '09:00', { months_of_year: [4, 5, 6, 7] }),
        '2026-04-06T09:00:00Z',
      ],
    ],
  },
  {
    name: 'time zones in the text',
    now: WED,
    rows: [
      ['every day at 9am Europe/Berlin', daily('09:00', { timezone: 'Europe/Berlin' }), '2026-03-05T08:00:00Z'],
      ['every day at 9am PST', daily('09:00', { timezone: 'America/Los_Angeles' }), '2026-03-04T17:00:00Z'],
      ['daily at 10:00 UTC', daily('10:00'), '2026-03-05T10:00:00Z'],
      ['every weekday 9am CET', weekly(WEEKDAYS, '09:00', { timezone: 'Europe/Berlin' }), '2026-03-05T08:00:00Z'],
      // EST means New York civil time: on 9 March New York is already on EDT (UTC-4).
      ['every Monday at 8 EST', weekly([1], '08:00', { timezone: 'America/New_York' }), '2026-03-09T12:00:00Z'],
      ['every day at 9am UTC+2', daily('09:00', { timezone: 'Etc/GMT-2' }), '2026-03-05T07:00:00Z'],
      ['every day at 9am GMT-5', daily('09:00', { timezone: 'Etc/GMT+5' }), '2026-03-04T14:00:00Z'],
      ['every weekday at 8:00 Eastern time', weekly(WEEKDAYS, '08:00', { timezone: 'America/New_York' }), '2026-03-04T13:00:00Z'],
      ['every day at 5pm pacific', daily('17:00', { timezone: 'America/Los_Angeles' }), '2026-03-05T01:00:00Z'],
      ['every day at 6pm JST', daily('18:00', { timezone: 'Asia/Tokyo' }), '2026-03-05T09:00:00Z'],
      ['every day at 9am CST', daily('09:00', { timezone: 'America/Chicago' }), '2026-03-04T15:00:00Z'],
      ['every day at 9 america/new_york', daily('09:00', { timezone: 'America/New_York' }), '2026-03-04T14:00:00Z'],
      ['every day at 8:00 US/Eastern', daily('08:00', { timezone: 'US/Eastern' }), '2026-03-04T13:00:00Z'],
      ['every day at 9 (Europe/London)', daily('09:00', { timezone: 'Europe/London' }), '2026-03-05T09:00:00Z'],
      [
        'monthly on the 1st at 9am Australia/Sydney',
        monthly('09:00', { days_of_month: [1], timezone: 'Australia/Sydney' }),
        '2026-03-31T22:00:00Z',
      ],
    ],
  },
  {
    name: 'options.timezone (Asia/Kolkata, UTC+05:30)',
    now: WED,
    timezone: 'Asia/Kolkata',
    rows: [
      ['every day at 9', daily('09:00', { timezone: 'Asia/Kolkata' }), '2026-03-05T03:30:00Z'],
      // A zone in the text wins over options.timezone.
      ['every day at 9am Europe/Berlin', daily('09:00', { timezone: 'Europe/Berlin' }), '2026-03-05T08:00:00Z'],
    ],
  },
  {
    name: 'options.timezone given as an abbreviation',
    now: WED,
    timezone: 'PST',
    rows: [['every day at 9am', daily('09:00', { timezone: 'America/Los_Angeles' }), '2026-03-04T17:00:00Z']],
  },
  {
    name: 'DST: New York springs forward on 2026-03-08',
    now: '2026-03-07T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (EST), i.e. 03:30 EDT.
      ['every day at 2:30', daily('02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
      ['every day at 2:30 America/New_York', daily('02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
      ['every Sunday at 9am', weekly([0], '09:00', { timezone: 'America/New_York' }), '2026-03-08T13:00:00Z'],
      ['every day at 1:30', daily('01:30', { timezone: 'America/New_York' }), '2026-03-08T06:30:00Z'],
      ['every day at 3:00', daily('03:00', { timezone: 'America/New_York' }), '2026-03-08T07:00:00Z'],
    ],
  },
  {
    name: 'DST: New York falls back on 2026-11-01',
    now: '2026-10-31T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 01:30 happens twice: the first (EDT) one.
      ['every day at 1:30', daily('01:30', { timezone: 'America/New_York' }), '2026-11-01T05:30:00Z'],
      ['every Sunday at 9am', weekly([0], '09:00', { timezone: 'America/New_York' }), '2026-11-01T14:00:00Z'],
      ['every day at 0:30', daily('00:30', { timezone: 'America/New_York' }), '2026-11-01T04:30:00Z'],
      ['every day at 2:30', daily('02:30', { timezone: 'America/New_York' }), '2026-11-01T07:30:00Z'],
      [
        'every other Sunday at 1:30',
        weekly([0], '01:30', { timezone: 'America/New_York', interval: 2, anchor_date: '2026-11-01' }),
        '2026-11-01T05:30:00Z',
      ],
    ],
  },
  {
    name: 'DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-28T12:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      ['every day at 2:30', daily('02:30', { timezone: 'Europe/Berlin' }), '2026-03-29T01:30:00Z'],
      ['every day at 9', daily('09:00', { timezone: 'Europe/Berlin' }), '2026-03-29T07:00:00Z'],
      ['every Sunday at 1:59', weekly([0], '01:59', { timezone: 'Europe/Berlin' }), '2026-03-29T00:59:00Z'],
      [
        'last Sunday of the month at 2:00',
        monthly('02:00', { days_of_week: [0], weeks_of_month: [-1], timezone: 'Europe/Berlin' }),
        '2026-03-29T01:00:00Z',
      ],
    ],
  },
  {
    name: 'DST: Berlin falls back on 2026-10-25',
    now: '2026-10-24T12:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      ['every day at 2:30', daily('02:30', { timezone: 'Europe/Berlin' }), '2026-10-25T00:30:00Z'],
      ['every day at 9', daily('09:00', { timezone: 'Europe/Berlin' }), '2026-10-25T08:00:00Z'],
      [
        'last Sunday of the month at 2:15',
        monthly('02:15', { days_of_week: [0], weeks_of_month: [-1], timezone: 'Europe/Berlin' }),
        '2026-10-25T00:15:00Z',
      ],
      ['every day at 3:00', daily('03:00', { timezone: 'Europe/Berlin' }), '2026-10-25T02:00:00Z'],
    ],
  },
  {
    name: 'month ends: April has no 31st',
    now: '2026-04-10T00:00:00Z',
    rows: [
      ['on the 31st', monthly('09:00', { days_of_month: [31] }), '2026-05-31T09:00:00Z'],
      ['last day of the month', monthly('09:00', { days_of_month: [-1] }), '2026-04-30T09:00:00Z'],
      ['the 30th and 31st of every month', monthly('09:00', { days_of_month: [30, 31] }), '2026-04-30T09:00:00Z'],
      [
        'every 2 months on the 31st',
        monthly('09:00', { days_of_month: [31], interval: 2, anchor_date: '2026-05-31' }),
        '2026-05-31T09:00:00Z',
      ],
      ['last Thursday of the month', monthly('09:00', { days_of_week: [4], weeks_of_month: [-1] }), '2026-04-30T09:00:00Z'],
      ['fifth Friday of every month', monthly('09:00', { days_of_week: [5], weeks_of_month: [5] }), '2026-05-29T09:00:00Z'],
    ],
  },
  {
    name: 'month ends: February 2027 (28 days)',
    now: '2027-02-10T00:00:00Z',
    rows: [
      ['last day of the month', monthly('09:00', { days_of_month: [-1] }), '2027-02-28T09:00:00Z'],
      ['on the 29th of every month', monthly('09:00', { days_of_month: [29] }), '2027-03-29T09:00:00Z'],
      ['on the 30th', monthly('09:00', { days_of_month: [30] }), '2027-03-30T09:00:00Z'],
      ['last Sunday of the month', monthly('09:00', { days_of_week: [0], weeks_of_month: [-1] }), '2027-02-28T09:00:00Z'],
      ['every year on Feb 29', yearly([2], '09:00', { days_of_month: [29] }), '2028-02-29T09:00:00Z'],
    ],
  },
  {
    name: 'leap year: February 2028 (29 days)',
    now: '2028-02-10T00:00:00Z',
    rows: [
      ['last day of the month', monthly('09:00', { days_of_month: [-1] }), '2028-02-29T09:00:00Z'],
      ['on the 29th', monthly('09:00', { days_of_month: [29] }), '2028-02-29T09:00:00Z'],
      ['every year on Feb 29', yearly([2], '09:00', { days_of_month: [29] }), '2028-02-29T09:00:00Z'],
      ['every year on the last day of February', yearly([2], '09:00', { days_of_month: [-1] }), '2028-02-29T09:00:00Z'],
      ['annually on February 28', yearly([2], '09:00', { days_of_month: [28] }), '2028-02-28T09:00:00Z'],
      [
        'every 4 years on Feb 29',
        yearly([2], '09:00', { days_of_month: [29], interval: 4, anchor_date: '2028-02-29' }),
        '2028-02-29T09:00:00Z',
      ],
    ],
  },
  {
    name: 'year end',
    now: '2026-12-31T23:30:00Z',
    rows: [
      ['every day at 23:45', daily('23:45'), '2026-12-31T23:45:00Z'],
      ['every day', daily('09:00'), '2027-01-01T09:00:00Z'],
      ['yearly', yearly([1], '09:00', { days_of_month: [1] }), '2027-01-01T09:00:00Z'],
      ['last day of the month at 23:59', monthly('23:59', { days_of_month: [-1] }), '2026-12-31T23:59:00Z'],
      ['every year on Dec 31 at 11pm', yearly([12], '23:00', { days_of_month: [31] }), '2027-12-31T23:00:00Z'],
      ['every weekday', weekly(WEEKDAYS, '09:00'), '2027-01-01T09:00:00Z'],
      ['first Monday of every month', monthly('09:00', { days_of_week: [1], weeks_of_month: [1] }), '2027-01-04T09:00:00Z'],
      ['every day at 8am Asia/Tokyo', daily('08:00', { timezone: 'Asia/Tokyo' }), '2027-01-01T23:00:00Z'],
      ['every day at 6pm America/Los_Angeles', daily('18:00', { timezone: 'America/Los_Angeles' }), '2027-01-01T02:00:00Z'],
      ['every Friday at 10pm Pacific/Auckland', weekly([5], '22:00', { timezone: 'Pacific/Auckland' }), '2027-01-01T09:00:00Z'],
      [
        'first day of every quarter',
        monthly('09:00', { days_of_month: [1], months_of_year: [1, 4, 7, 10] }),
        '2027-01-01T09:00:00Z',
      ],
    ],
  },
  {
    // The anchor is the first run on or after the start date, which may lie before now.
    name: 'start dates ("starting ...", as schedules are said back)',
    now: WED,
    rows: [
      [
        'Every 2 weeks on Monday at 10:00, starting Monday 30 November 2026, UTC',
        weekly([1], '10:00', { interval: 2, anchor_date: '2026-11-30' }),
        '2026-11-30T10:00:00Z',
      ],
      [
        'every other Friday starting 2026-03-20',
        weekly([5], '09:00', { interval: 2, anchor_date: '2026-03-20' }),
        '2026-03-20T09:00:00Z',
      ],
      // Sunday 8 March is no run: the first Monday after it is.
      [
        'every 2 weeks on Monday starting Sunday 8 March 2026',
        weekly([1], '09:00', { interval: 2, anchor_date: '2026-03-09' }),
        '2026-03-09T09:00:00Z',
      ],
      // Started 4 weeks ago: today's 09:00 run is past, the next is two weeks on.
      [
        'every 2 weeks on Wednesday starting 4 February 2026',
        weekly([3], '09:00', { interval: 2, anchor_date: '2026-02-04' }),
        '2026-03-18T09:00:00Z',
      ],
      [
        'every 3 months on the 15th starting November 30, 2026',
        monthly('09:00', { days_of_month: [15], interval: 3, anchor_date: '2026-12-15' }),
        '2026-12-15T09:00:00Z',
      ],
      [
        'every 3 days starting 10th March 2026',
        daily('09:00', { interval: 3, anchor_date: '2026-03-10' }),
        '2026-03-10T09:00:00Z',
      ],
      [
        'every other day starting on 2026-03-07 at 6pm',
        daily('18:00', { interval: 2, anchor_date: '2026-03-07' }),
        '2026-03-07T18:00:00Z',
      ],
      [
        'Every 2 weeks on Sunday at 01:30, starting Sunday 1 November 2026, America/New_York',
        weekly([0], '01:30', { interval: 2, anchor_date: '2026-11-01', timezone: 'America/New_York' }),
        '2026-11-01T05:30:00Z',
      ],
    ],
  },
  {
    // Issue 9, family 10: a one-off ("this Tuesday", "April 9th") is refused; with "every" it repeats.
    name: 'family 10: one-offs said as recurrences',
    now: WED,
    rows: [
      ['every Tuesday at 4pm', weekly([2], '16:00'), '2026-03-10T16:00:00Z'],
      ['every year on April 9th at 7am', yearly([4], '07:00', { days_of_month: [9] }), '2026-04-09T07:00:00Z'],
      ['every April 9th at 7am', yearly([4], '07:00', { days_of_month: [9] }), '2026-04-09T07:00:00Z'],
      ['each 25th of December', yearly([12], '09:00', { days_of_month: [25] }), '2026-12-25T09:00:00Z'],
      [
        'the fourth Thursday of November every year',
        yearly([11], '09:00', { days_of_week: [4], weeks_of_month: [4] }),
        '2026-11-26T09:00:00Z',
      ],
      // A bare weekday (no "this" / "next") stays weekly, as "Tue, Wed at 5pm" always has.
      ['Friday at 5pm', weekly([5], '17:00'), '2026-03-06T17:00:00Z'],
      // "this" as in "run this (knap)": a plural weekday or a range is no one-off.
      ['run this Monday to Friday at 9', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['run this Mondays and Fridays', weekly([1, 5], '09:00'), '2026-03-06T09:00:00Z'],
      // "last Friday" is the last Friday of each month, not last week's Friday.
      ['last Friday at 4pm', monthly('16:00', { days_of_week: [5], weeks_of_month: [-1] }), '2026-03-27T16:00:00Z'],
    ],
  },
  {
    // Issue 9, family 8: military time, hours in words, "half past", "quarter to", "12am (midnight)".
    name: 'family 8: times in more forms',
    now: WED,
    rows: [
      ['every day at 1730 hrs', daily('17:30'), '2026-03-04T17:30:00Z'],
      ['weekdays at 0900h', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['daily at 17:30 hrs', daily('17:30'), '2026-03-04T17:30:00Z'],
      ['every day 0645 hours', daily('06:45'), '2026-03-05T06:45:00Z'],
      ['every day at seven am', daily('07:00'), '2026-03-05T07:00:00Z'],
      ['every Monday at seven pm', weekly([1], '19:00'), '2026-03-09T19:00:00Z'],
      ['daily at seven', daily('07:00'), '2026-03-05T07:00:00Z'],
      ["every Friday at eleven o'clock", weekly([5], '11:00'), '2026-03-06T11:00:00Z'],
      ['every day at half past nine', daily('09:30'), '2026-03-05T09:30:00Z'],
      ['every day at quarter to 6', daily('05:45'), '2026-03-05T05:45:00Z'],
      ['every evening at quarter to seven', daily('18:45'), '2026-03-04T18:45:00Z'],
      ['every day at ten past seven pm', daily('19:10'), '2026-03-04T19:10:00Z'],
      ['every day at five to nine', daily('08:55'), '2026-03-05T08:55:00Z'],
      ['every day at twelve noon', daily('12:00'), '2026-03-04T12:00:00Z'],
      ['every day at 12am (midnight)', daily('00:00'), '2026-03-05T00:00:00Z'],
      ['every day at 12pm (noon)', daily('12:00'), '2026-03-04T12:00:00Z'],
      ['every day at midnight (12am)', daily('00:00'), '2026-03-05T00:00:00Z'],
      ['every day at 12:00 AM (midnight)', daily('00:00'), '2026-03-05T00:00:00Z'],
    ],
  },
  {
    name: 'family 8 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-07T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (EST), as for "2:30".
      ['every day at 0230 hrs', daily('02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
      ['every day at half past two', daily('02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
      ['every Sunday at nine am', weekly([0], '09:00', { timezone: 'America/New_York' }), '2026-03-08T13:00:00Z'],
    ],
  },
  {
    name: 'family 8 across DST: Berlin falls back on 2026-10-25',
    now: '2026-10-24T12:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      // 02:30 happens twice: the first (CEST) one.
      ['every day at half past two', daily('02:30', { timezone: 'Europe/Berlin' }), '2026-10-25T00:30:00Z'],
      ['every day at 0300 hrs', daily('03:00', { timezone: 'Europe/Berlin' }), '2026-10-25T02:00:00Z'],
    ],
  },
  {
    // Issue 9, family 9: weekday and month names one edit away, when only one name fits.
    name: 'family 9: typos in weekday and month names',
    now: WED,
    rows: [
      ['every tuesdya', weekly([2], '09:00'), '2026-03-10T09:00:00Z'],
      ['saturady at 10', weekly([6], '10:00'), '2026-03-07T10:00:00Z'],
      ['every year on febuary 3', yearly([2], '09:00', { days_of_month: [3] }), '2027-02-03T09:00:00Z'],
      ['every wendesday at 8am', weekly([3], '08:00'), '2026-03-11T08:00:00Z'],
      ['every thrusday', weekly([4], '09:00'), '2026-03-05T09:00:00Z'],
      ['Mondya and Thrusday at 5pm', weekly([1, 4], '17:00'), '2026-03-05T17:00:00Z'],
      ['Wednsdays', weekly([3], '09:00'), '2026-03-11T09:00:00Z'],
      ['every mnday', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      ['every day in agust at 8', daily('08:00', { months_of_year: [8] }), '2026-08-01T08:00:00Z'],
      ['first mondya of the month', monthly('09:00', { days_of_week: [1], weeks_of_month: [1] }), '2026-04-06T09:00:00Z'],
      ['last fridya of every month', monthly('09:00', { days_of_week: [5], weeks_of_month: [-1] }), '2026-03-27T09:00:00Z'],
      ['every 1st of octobre', yearly([10], '09:00', { days_of_month: [1] }), '2026-10-01T09:00:00Z'],
      ['every decmber 25', yearly([12], '09:00', { days_of_month: [25] }), '2026-12-25T09:00:00Z'],
      ['every 2 weeks on tusday', weekly([2], '09:00', { interval: 2, anchor_date: '2026-03-10' }), '2026-03-10T09:00:00Z'],
    ],
  },
  {
    name: 'family 9 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-07T12:00:00Z',
    timezone: 'America/New_York',
    rows: [['every sundya at 9am', weekly([0], '09:00', { timezone: 'America/New_York' }), '2026-03-08T13:00:00Z']],
  },
  {
    // Issue 9, family 6: "every 4th Monday" is the fourth Monday of each month (Todoist's
    // reading); "every other" and "every second" / "every 2nd" stay every two weeks.
    name: 'family 6: ordinal weekday without "of the month"',
    now: WED,
    rows: [
      ['every 4th Monday', monthly('09:00', { days_of_week: [1], weeks_of_month: [4] }), '2026-03-23T09:00:00Z'],
      ['every fourth Monday at 10', monthly('10:00', { days_of_week: [1], weeks_of_month: [4] }), '2026-03-23T10:00:00Z'],
      ['every 3rd Friday at 5pm', monthly('17:00', { days_of_week: [5], weeks_of_month: [3] }), '2026-03-20T17:00:00Z'],
      ['each third Thursday', monthly('09:00', { days_of_week: [4], weeks_of_month: [3] }), '2026-03-19T09:00:00Z'],
      ['every 5th Sunday', monthly('09:00', { days_of_week: [0], weeks_of_month: [5] }), '2026-03-29T09:00:00Z'],
      ['every last Friday', monthly('09:00', { days_of_week: [5], weeks_of_month: [-1] }), '2026-03-27T09:00:00Z'],
      ['every 4th Monday and Tuesday', monthly('09:00', { days_of_week: [1, 2], weeks_of_month: [4] }), '2026-03-23T09:00:00Z'],
      ['every 4th Monday in December', yearly([12], '09:00', { days_of_week: [1], weeks_of_month: [4] }), '2026-12-28T09:00:00Z'],
      [
        'every 3rd Monday every 2 months',
        monthly('09:00', { days_of_week: [1], weeks_of_month: [3], interval: 2, anchor_date: '2026-03-16' }),
        '2026-03-16T09:00:00Z',
      ],
      ['every other Thursday', weekly([4], '09:00', { interval: 2, anchor_date: '2026-03-05' }), '2026-03-05T09:00:00Z'],
      ['every second Monday', weekly([1], '09:00', { interval: 2, anchor_date: '2026-03-09' }), '2026-03-09T09:00:00Z'],
      ['every 2nd Monday', weekly([1], '09:00', { interval: 2, anchor_date: '2026-03-09' }), '2026-03-09T09:00:00Z'],
      ['every second Monday of the month', monthly('09:00', { days_of_week: [1], weeks_of_month: [2] }), '2026-03-09T09:00:00Z'],
    ],
  },
  {
    name: 'family 6 across DST: Berlin springs forward on Sunday 2026-03-29',
    now: '2026-03-28T12:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (CET), i.e. 03:30 CEST.
      [
        'every 5th Sunday at 2:30',
        monthly('02:30', { days_of_week: [0], weeks_of_month: [5], timezone: 'Europe/Berlin' }),
        '2026-03-29T01:30:00Z',
      ],
      [
        'every 4th Sunday at 9',
        monthly('09:00', { days_of_week: [0], weeks_of_month: [4], timezone: 'Europe/Berlin' }),
        '2026-04-26T07:00:00Z',
      ],
    ],
  },
  {
    name: 'family 6 across DST: New York falls back on Sunday 2026-11-01',
    now: '2026-10-31T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 01:30 happens twice: the first (EDT) one.
      [
        'every first Sunday at 1:30',
        monthly('01:30', { days_of_week: [0], weeks_of_month: [1], timezone: 'America/New_York' }),
        '2026-11-01T05:30:00Z',
      ],
    ],
  },
  {
    // Issue 9, family 2: days of the month as "day N" lists, in digits or words.
    name: 'family 2: day-of-month lists',
    now: WED,
    rows: [
      ['on days 5 and 20', monthly('09:00', { days_of_month: [5, 20] }), '2026-03-05T09:00:00Z'],
      ['on day three of each month', monthly('09:00', { days_of_month: [3] }), '2026-04-03T09:00:00Z'],
      ['the 3rd, 9th and 27th', monthly('09:00', { days_of_month: [3, 9, 27] }), '2026-03-09T09:00:00Z'],
      ['day 12 and the last day of each month', monthly('09:00', { days_of_month: [12, -1] }), '2026-03-12T09:00:00Z'],
      [
        'day 10 of every other month',
        monthly('09:00', { days_of_month: [10], interval: 2, anchor_date: '2026-03-10' }),
        '2026-03-10T09:00:00Z',
      ],
      [
        'day 10 of every 3 months',
        monthly('09:00', { days_of_month: [10], interval: 3, anchor_date: '2026-03-10' }),
        '2026-03-10T09:00:00Z',
      ],
      ['days five and twenty', monthly('09:00', { days_of_month: [5, 20] }), '2026-03-05T09:00:00Z'],
      ['monthly on days 1, 15 and 28', monthly('09:00', { days_of_month: [1, 15, 28] }), '2026-03-15T09:00:00Z'],
      ['day twenty-one of each month at 8', monthly('08:00', { days_of_month: [21] }), '2026-03-21T08:00:00Z'],
      ['day thirty one of every month', monthly('09:00', { days_of_month: [31] }), '2026-03-31T09:00:00Z'],
      ['on day 4 at 11am', monthly('11:00', { days_of_month: [4] }), '2026-03-04T11:00:00Z'],
      ['days 1 and last', monthly('09:00', { days_of_month: [1, -1] }), '2026-03-31T09:00:00Z'],
      ['the first, ninth and twenty-seventh at 6pm', monthly('18:00', { days_of_month: [1, 9, 27] }), '2026-03-09T18:00:00Z'],
      ['day 5 of March every year', yearly([3], '09:00', { days_of_month: [5] }), '2026-03-05T09:00:00Z'],
      [
        'day 15 of every quarter',
        monthly('09:00', { days_of_month: [15], months_of_year: [1, 4, 7, 10] }),
        '2026-04-15T09:00:00Z',
      ],
    ],
  },
  {
    name: 'family 2 at month ends: April has no 31st',
    now: '2026-04-10T00:00:00Z',
    rows: [['on days 30 and 31', monthly('09:00', { days_of_month: [30, 31] }), '2026-04-30T09:00:00Z']],
  },
  {
    name: 'family 2 at month ends: February 2027 (28 days)',
    now: '2027-02-10T00:00:00Z',
    rows: [['day 29 and the last day of each month', monthly('09:00', { days_of_month: [29, -1] }), '2027-02-28T09:00:00Z']],
  },
  {
    name: 'family 2 across DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-28T12:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (CET), i.e. 03:30 CEST.
      [
        'on days 29 and 30 at 2:30',
        monthly('02:30', { days_of_month: [29, 30], timezone: 'Europe/Berlin' }),
        '2026-03-29T01:30:00Z',
      ],
    ],
  },
  {
    // Issue 9, family 5: named weekdays taken out of "every day" or out of the days named.
    name: 'family 5: exclusions',
    now: WED,
    rows: [
      ['every day except Sunday', weekly([1, 2, 3, 4, 5, 6], '09:00'), '2026-03-05T09:00:00Z'],
      ['weekdays but not Mondays', weekly([2, 3, 4, 5], '09:00'), '2026-03-05T09:00:00Z'],
      ['daily except Saturdays and Sundays', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['every day at 8 except on Sunday', weekly([1, 2, 3, 4, 5, 6], '08:00'), '2026-03-05T08:00:00Z'],
      ['every day excluding Friday and Saturday', weekly([0, 1, 2, 3, 4], '09:00'), '2026-03-05T09:00:00Z'],
      ['every day not on Sundays', weekly([1, 2, 3, 4, 5, 6], '09:00'), '2026-03-05T09:00:00Z'],
      ['Mon-Fri except Wednesday at 5pm', weekly([1, 2, 4, 5], '17:00'), '2026-03-05T17:00:00Z'],
      ['every day except Thursday and Friday at 6pm', weekly([0, 1, 2, 3, 6], '18:00'), '2026-03-04T18:00:00Z'],
      [
        'every day except Sunday in December',
        weekly([1, 2, 3, 4, 5, 6], '09:00', { months_of_year: [12] }),
        '2026-12-01T09:00:00Z',
      ],
      [
        'every 2 weeks on weekdays except Monday',
        weekly([2, 3, 4, 5], '09:00', { interval: 2, anchor_date: '2026-03-05' }),
        '2026-03-05T09:00:00Z',
      ],
    ],
  },
  {
    name: 'family 5 across DST: New York springs forward on Sunday 2026-03-08',
    now: '2026-03-07T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (EST), i.e. 03:30 EDT.
      [
        'every day except Saturday at 2:30',
        weekly([0, 1, 2, 3, 4, 5], '02:30', { timezone: 'America/New_York' }),
        '2026-03-08T07:30:00Z',
      ],
    ],
  },
  {
    // Issue 9, family 7: zones people name: "<city> time" (IANA cities), one-zone countries, offsets.
    name: 'family 7: time zones people name',
    now: WED,
    rows: [
      ['every day at 9am Paris time', daily('09:00', { timezone: 'Europe/Paris' }), '2026-03-05T08:00:00Z'],
      // Sydney is on AEDT (UTC+11) in March: 9am on 5 March is 22:00Z on 4 March.
      ['every day at 9am Sydney time', daily('09:00', { timezone: 'Australia/Sydney' }), '2026-03-04T22:00:00Z'],
      ['every weekday at 8 New York time', weekly(WEEKDAYS, '08:00', { timezone: 'America/New_York' }), '2026-03-04T13:00:00Z'],
      ['every day at 9 Los Angeles time', daily('09:00', { timezone: 'America/Los_Angeles' }), '2026-03-04T17:00:00Z'],
      ['every day at 9 Sao Paulo time', daily('09:00', { timezone: 'America/Sao_Paulo' }), '2026-03-04T12:00:00Z'],
      ['every day at 9 kolkata time', daily('09:00', { timezone: 'Asia/Kolkata' }), '2026-03-05T03:30:00Z'],
      ['every Monday at 9am Berlin time', weekly([1], '09:00', { timezone: 'Europe/Berlin' }), '2026-03-09T08:00:00Z'],
      ['every day at 9 Japan time', daily('09:00', { timezone: 'Asia/Tokyo' }), '2026-03-05T00:00:00Z'],
      ['every day at 9 India time', daily('09:00', { timezone: 'Asia/Kolkata' }), '2026-03-05T03:30:00Z'],
      ['every day at 5pm UK time', daily('17:00', { timezone: 'Europe/London' }), '2026-03-04T17:00:00Z'],
      ['every day at 9am GMT-3', daily('09:00', { timezone: 'Etc/GMT+3' }), '2026-03-04T12:00:00Z'],
      ['every day at 9 UTC+05:00', daily('09:00', { timezone: 'Etc/GMT-5' }), '2026-03-05T04:00:00Z'],
      ['every day at 9am ET', daily('09:00', { timezone: 'America/New_York' }), '2026-03-04T14:00:00Z'],
      ['every day at 9am PT', daily('09:00', { timezone: 'America/Los_Angeles' }), '2026-03-04T17:00:00Z'],
      ['every day at 9am CEST', daily('09:00', { timezone: 'Europe/Berlin' }), '2026-03-05T08:00:00Z'],
      ['every day at 9am Paris time (Europe/Paris)', daily('09:00', { timezone: 'Europe/Paris' }), '2026-03-05T08:00:00Z'],
    ],
  },
  {
    name: 'family 7 across DST: Paris springs forward on 2026-03-29',
    now: '2026-03-28T12:00:00Z',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (CET), i.e. 03:30 CEST.
      ['every day at 2:30 Paris time', daily('02:30', { timezone: 'Europe/Paris' }), '2026-03-29T01:30:00Z'],
      ['every day at 9 Paris time', daily('09:00', { timezone: 'Europe/Paris' }), '2026-03-29T07:00:00Z'],
    ],
  },
  {
    name: 'family 7 across DST: Sydney leaves DST on Sunday 2026-04-05',
    now: '2026-04-04T12:00:00Z',
    rows: [
      // 9am on 5 April is already AEST (UTC+10).
      ['every day at 9am Sydney time', daily('09:00', { timezone: 'Australia/Sydney' }), '2026-04-04T23:00:00Z'],
      // 02:30 happens twice: the first (AEDT, UTC+11) one.
      ['every Sunday at 2:30 Sydney time', weekly([0], '02:30', { timezone: 'Australia/Sydney' }), '2026-04-04T15:30:00Z'],
    ],
  },
  {
    // Issue 9, family 3 (part): cron-description wording as cronstrue / crontab.guru print it.
    name: 'family 3: cron-description wording',
    now: WED,
    rows: [
      [
        'At 06:30 PM, on day 4 of the month, every 2 months',
        monthly('18:30', { days_of_month: [4], interval: 2, anchor_date: '2026-03-04' }),
        '2026-03-04T18:30:00Z',
      ],
      ['At 11:20 PM, only on Tuesday', weekly([2], '23:20'), '2026-03-10T23:20:00Z'],
      ['At 09:00 AM, only in March and April', daily('09:00', { months_of_year: [3, 4] }), '2026-03-05T09:00:00Z'],
      ['At 12:00 AM, only on Sunday, only in January', weekly([0], '00:00', { months_of_year: [1] }), '2027-01-03T00:00:00Z'],
      ['At 09:00, Wednesday through Saturday and Monday', weekly([1, 3, 4, 5, 6], '09:00'), '2026-03-05T09:00:00Z'],
      ['Trigger at 8:40am every day', daily('08:40'), '2026-03-05T08:40:00Z'],
      ['Execute every Monday at 9', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      ['At 12:00 AM (midnight), on day 1 of the month', monthly('00:00', { days_of_month: [1] }), '2026-04-01T00:00:00Z'],
      ['At 00:00 on day-of-month 1', monthly('00:00', { days_of_month: [1] }), '2026-04-01T00:00:00Z'],
      [
        'At 00:00 on day-of-month 1 in every 2nd month',
        monthly('00:00', { days_of_month: [1], interval: 2, anchor_date: '2026-04-01' }),
        '2026-04-01T00:00:00Z',
      ],
      ['At 04:05 AM, Monday through Friday', weekly(WEEKDAYS, '04:05'), '2026-03-05T04:05:00Z'],
      [
        'At 09:00 AM, between day 1 and 7 of the month',
        monthly('09:00', { days_of_month: [1, 2, 3, 4, 5, 6, 7] }),
        '2026-03-05T09:00:00Z',
      ],
      ['days 1-7 at 9', monthly('09:00', { days_of_month: [1, 2, 3, 4, 5, 6, 7] }), '2026-03-05T09:00:00Z'],
      ['days 25 to last', monthly('09:00', { days_of_month: [25, 26, 27, 28, 29, 30, 31] }), '2026-03-25T09:00:00Z'],
      ['At 09:00 AM, only in January through March', daily('09:00', { months_of_year: [1, 2, 3] }), '2026-03-05T09:00:00Z'],
      ['every day in Nov-Feb', daily('09:00', { months_of_year: [1, 2, 11, 12] }), '2026-11-01T09:00:00Z'],
      ['At 09:00 AM, on day 4, only in March', yearly([3], '09:00', { days_of_month: [4] }), '2027-03-04T09:00:00Z'],
    ],
  },
  {
    name: 'family 3 across DST: New York springs forward on Sunday 2026-03-08',
    now: '2026-03-07T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (EST), i.e. 03:30 EDT.
      ['At 02:30 AM, only on Sunday', weekly([0], '02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
    ],
  },
  {
    // Issue 9, family 4: cron expressions as the description, where schedule_info holds them.
    name: 'family 4: cron expressions',
    now: WED,
    rows: [
      ['0 9 * * 1-5', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['cron(0 9 ? * MON-FRI *)', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['0 9 1,15 * *', monthly('09:00', { days_of_month: [1, 15] }), '2026-03-15T09:00:00Z'],
      ['0 9 L * *', monthly('09:00', { days_of_month: [-1] }), '2026-03-31T09:00:00Z'],
      ['0 9 * * MON#2', monthly('09:00', { days_of_week: [1], weeks_of_month: [2] }), '2026-03-09T09:00:00Z'],
      // EventBridge numbers weekdays 1-7 from Sunday: 2#1 is the first Monday.
      ['cron(0 9 ? * 2#1 *)', monthly('09:00', { days_of_week: [1], weeks_of_month: [1] }), '2026-04-06T09:00:00Z'],
      ['0 0 25 12 *', yearly([12], '00:00', { days_of_month: [25] }), '2026-12-25T00:00:00Z'],
      ['0 9 * 3,4 *', daily('09:00', { months_of_year: [3, 4] }), '2026-03-05T09:00:00Z'],
      ['0 9 * * 0', weekly([0], '09:00'), '2026-03-08T09:00:00Z'],
      ['0 9 * * 7', weekly([0], '09:00'), '2026-03-08T09:00:00Z'],
      ['cron(0 9 ? * 1 *)', weekly([0], '09:00'), '2026-03-08T09:00:00Z'],
      ['0 9 * * SAT,SUN', weekly([0, 6], '09:00'), '2026-03-07T09:00:00Z'],
      ['0 9 * JAN-MAR MON', weekly([1], '09:00', { months_of_year: [1, 2, 3] }), '2026-03-09T09:00:00Z'],
      ['cron(30 18 4 * ? *)', monthly('18:30', { days_of_month: [4] }), '2026-03-04T18:30:00Z'],
      // No fifth Saturday in March or April 2026; May 2026 has one, the 30th.
      ['0 9 * * 6#5', monthly('09:00', { days_of_week: [6], weeks_of_month: [5] }), '2026-05-30T09:00:00Z'],
    ],
  },
  {
    name: 'family 4 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-07T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 02:30 does not exist that night: read with the pre-gap offset (EST), i.e. 03:30 EDT.
      ['30 2 * * *', daily('02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
    ],
  },
  {
    // Issue 9, family 1: every N hours / minutes. Wednesday 4 March 2026, 10:00 UTC.
    name: 'family 1: every N hours or minutes',
    now: WED,
    rows: [
      ['every 4 hours', hourly(4, '00:00', null), '2026-03-04T12:00:00Z'],
      ['hourly', hourly(1, '00:00', null), '2026-03-04T11:00:00Z'],
      ['every hour', hourly(1, '00:00', null), '2026-03-04T11:00:00Z'],
      ['once an hour', hourly(1, '00:00', null), '2026-03-04T11:00:00Z'],
      ['every hour on the hour', hourly(1, '00:00', null), '2026-03-04T11:00:00Z'],
      ['hourly at :15', hourly(1, '00:15', null), '2026-03-04T10:15:00Z'],
      ['every hour at 15 past', hourly(1, '00:15', null), '2026-03-04T10:15:00Z'],
      ['every hour at quarter past the hour', hourly(1, '00:15', null), '2026-03-04T10:15:00Z'],
      ['every hour at 20 minutes past the hour', hourly(1, '00:20', null), '2026-03-04T10:20:00Z'],
      ['every 2 hours at :30', hourly(2, '00:30', null), '2026-03-04T10:30:00Z'],
      // 00:00, 02:00 ... 10:00 is now, not after it.
      ['every other hour', hourly(2, '00:00', null), '2026-03-04T12:00:00Z'],
      ['every 3 hours between 8am and 8pm', hourly(3, '08:00', '20:00'), '2026-03-04T11:00:00Z'],
      // 06:00, 11:00, 16:00, 21:00: a window makes any step under it fine.
      ['every 5 hours between 6am and 10pm', hourly(5, '06:00', '22:00'), '2026-03-04T11:00:00Z'],
      ['every 20 minutes', minutely(20, '00:00', null), '2026-03-04T10:20:00Z'],
      ['every 15 minutes', minutely(15, '00:00', null), '2026-03-04T10:15:00Z'],
      ['At every minute', minutely(1, '00:00', null), '2026-03-04T10:01:00Z'],
      ['every half hour', minutely(30, '00:00', null), '2026-03-04T10:30:00Z'],
      ['half-hourly', minutely(30, '00:00', null), '2026-03-04T10:30:00Z'],
      // 1440 / 90 = 16 runs a day: ... 09:00, 10:30.
      ['every 90 minutes', minutely(90, '00:00', null), '2026-03-04T10:30:00Z'],
      ['every 30 minutes from 9:00 to 17:00', minutely(30, '09:00', '17:00'), '2026-03-04T10:30:00Z'],
      ['every hour from 9am to 5pm on weekdays', hourly(1, '09:00', '17:00', { days_of_week: WEEKDAYS }), '2026-03-04T11:00:00Z'],
      [
        'hourly at :45 between 9am and 5pm Mon-Fri',
        hourly(1, '09:45', '17:00', { days_of_week: WEEKDAYS }),
        '2026-03-04T10:45:00Z',
      ],
      // Saturday 7 March, at midnight.
      ['every 2 hours on weekends', hourly(2, '00:00', null, { days_of_week: [0, 6] }), '2026-03-07T00:00:00Z'],
      ['every 6 hours on the 1st of every month', hourly(6, '00:00', null, { days_of_month: [1] }), '2026-04-01T00:00:00Z'],
      ['every hour except Sunday', hourly(1, '00:00', null, { days_of_week: [1, 2, 3, 4, 5, 6] }), '2026-03-04T11:00:00Z'],
      ['every 2 hours in December', hourly(2, '00:00', null, { months_of_year: [12] }), '2026-12-01T00:00:00Z'],
      // Berlin is on CET (UTC+1): 12:00 local is 11:00Z.
      ['every 4 hours Europe/Berlin', hourly(4, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-03-04T11:00:00Z'],
    ],
  },
  {
    // Family 1 through family 4: cron steps and EventBridge rates that schedule_info can hold.
    name: 'family 1 as cron and rate expressions',
    now: WED,
    rows: [
      // rate() is read on the clock, from midnight.
      ['rate(6 hours)', hourly(6, '00:00', null), '2026-03-04T12:00:00Z'],
      ['rate(1 hour)', hourly(1, '00:00', null), '2026-03-04T11:00:00Z'],
      ['rate(30 minutes)', minutely(30, '00:00', null), '2026-03-04T10:30:00Z'],
      ['0 */4 * * *', hourly(4, '00:00', null), '2026-03-04T12:00:00Z'],
      ['15 * * * *', hourly(1, '00:15', null), '2026-03-04T10:15:00Z'],
      ['*/15 * * * *', minutely(15, '00:00', null), '2026-03-04T10:15:00Z'],
      ['0 8-20/3 * * *', hourly(3, '08:00', '20:00'), '2026-03-04T11:00:00Z'],
      ['0 9-17 * * 1-5', hourly(1, '09:00', '17:00', { days_of_week: WEEKDAYS }), '2026-03-04T11:00:00Z'],
      ['*/20 9-17 * * *', minutely(20, '09:00', '17:40'), '2026-03-04T10:20:00Z'],
      ['cron(0/30 * ? * MON-FRI *)', minutely(30, '00:00', null, { days_of_week: WEEKDAYS }), '2026-03-04T10:30:00Z'],
      // Cron's hour step restarts at midnight: 00, 05, 10, 15, 20; said with its last run.
      ['0 */5 * * *', hourly(5, '00:00', '20:00'), '2026-03-04T15:00:00Z'],
    ],
  },
  {
    // 02:00 CET jumps to 03:00 CEST at 01:00Z. Now: 01:45 CET.
    name: 'family 1 across DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-29T00:45:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      // 02:00 does not exist: read with the offset before the gap, it is 03:00 CEST (01:00Z).
      ['every hour', hourly(1, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-03-29T01:00:00Z'],
      ['every 30 minutes', minutely(30, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-03-29T01:00:00Z'],
      // 02:30 does not exist either: 03:30 CEST (01:30Z).
      ['every hour at :30', hourly(1, '00:30', null, { timezone: 'Europe/Berlin' }), '2026-03-29T01:30:00Z'],
      ['every 4 hours', hourly(4, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-03-29T02:00:00Z'],
      ['every 3 hours between 8am and 8pm', hourly(3, '08:00', '20:00', { timezone: 'Europe/Berlin' }), '2026-03-29T06:00:00Z'],
    ],
  },
  {
    // 03:00 CEST falls back to 02:00 CET at 01:00Z. Now: 02:10 CEST (00:10Z).
    name: 'family 1 across DST: Berlin falls back on 2026-10-25',
    now: '2026-10-25T00:10:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      // 02:00 happens twice; the CEST one (00:00Z) is past, the CET one (01:00Z) runs.
      ['every hour', hourly(1, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-10-25T01:00:00Z'],
      ['every 30 minutes', minutely(30, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-10-25T00:30:00Z'],
      ['every hour at :15', hourly(1, '00:15', null, { timezone: 'Europe/Berlin' }), '2026-10-25T00:15:00Z'],
      ['every 4 hours', hourly(4, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-10-25T03:00:00Z'],
      ['every 2 hours between 8am and 6pm', hourly(2, '08:00', '18:00', { timezone: 'Europe/Berlin' }), '2026-10-25T07:00:00Z'],
    ],
  },
  {
    // 02:00 EST jumps to 03:00 EDT at 07:00Z. Now: 01:30 EST.
    name: 'family 1 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-08T06:30:00Z',
    timezone: 'America/New_York',
    rows: [
      ['every hour', hourly(1, '00:00', null, { timezone: 'America/New_York' }), '2026-03-08T07:00:00Z'],
      ['every 20 minutes', minutely(20, '00:00', null, { timezone: 'America/New_York' }), '2026-03-08T06:40:00Z'],
      ['every 3 hours', hourly(3, '00:00', null, { timezone: 'America/New_York' }), '2026-03-08T07:00:00Z'],
    ],
  },
  {
    // 02:00 EDT falls back to 01:00 EST at 06:00Z. Now: 01:45 EDT.
    name: 'family 1 across DST: New York falls back on 2026-11-01',
    now: '2026-11-01T05:45:00Z',
    timezone: 'America/New_York',
    rows: [
      // 01:00 happens again, in EST (06:00Z): hourly runs keep their pace.
      ['every hour', hourly(1, '00:00', null, { timezone: 'America/New_York' }), '2026-11-01T06:00:00Z'],
      ['every 30 minutes', minutely(30, '00:00', null, { timezone: 'America/New_York' }), '2026-11-01T06:00:00Z'],
      ['every 2 hours', hourly(2, '00:00', null, { timezone: 'America/New_York' }), '2026-11-01T07:00:00Z'],
    ],
  },
  {
    // Issue 25, family 2: tails that only say the schedule has no end add nothing.
    name: 'issue 25, family 2: open-ended tails',
    now: WED,
    rows: [
      [
        'every other Tuesday, indefinitely',
        weekly([2], '09:00', { interval: 2, anchor_date: '2026-03-10' }),
        '2026-03-10T09:00:00Z',
      ],
      ['weekly on Fridays - forever', weekly([5], '09:00'), '2026-03-06T09:00:00Z'],
      ['every day at 8am until further notice', daily('08:00'), '2026-03-05T08:00:00Z'],
      ['every weekday at 9am from now on', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      ['monthly on the 1st until cancelled', monthly('09:00', { days_of_month: [1] }), '2026-04-01T09:00:00Z'],
      ['every Monday with no end date', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      ['daily at 6pm, ongoing', daily('18:00'), '2026-03-04T18:00:00Z'],
      ['every Monday, open-ended', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      ['daily including weekends', daily('09:00'), '2026-03-05T09:00:00Z'],
      ['every hour, indefinitely', hourly(1, '00:00', null), '2026-03-04T11:00:00Z'],
      [
        'every 2 weeks on Monday going forward',
        weekly([1], '09:00', { interval: 2, anchor_date: '2026-03-09' }),
        '2026-03-09T09:00:00Z',
      ],
    ],
  },
  {
    // 02:00 EST jumps to 03:00 EDT at 07:00Z. Now: 01:30 EST.
    name: 'issue 25, family 2 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-08T06:30:00Z',
    timezone: 'America/New_York',
    rows: [
      ['every day at 9am until further notice', daily('09:00', { timezone: 'America/New_York' }), '2026-03-08T13:00:00Z'],
      ['every day at 2:30am forever', daily('02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
    ],
  },
  {
    // Issue 25, family 4: "tz", "timezone", "time zone", "TZ=" before a zone, or after one.
    // Paris is on CET (UTC+1), Denver on MST (UTC-7) until Sunday 8 March.
    name: 'issue 25, family 4: zone keywords',
    now: WED,
    rows: [
      ['weekdays 6pm tz Europe/Paris', weekly(WEEKDAYS, '18:00', { timezone: 'Europe/Paris' }), '2026-03-04T17:00:00Z'],
      // A time alone is every day at it, as cron descriptions say a daily cron ("At 07:30").
      ['at 07:30 timezone Asia/Kolkata', daily('07:30', { timezone: 'Asia/Kolkata' }), '2026-03-05T02:00:00Z'],
      ['TZ=America/Denver daily at noon', daily('12:00', { timezone: 'America/Denver' }), '2026-03-04T19:00:00Z'],
      ['every day at 9 timezone Japan', daily('09:00', { timezone: 'Asia/Tokyo' }), '2026-03-05T00:00:00Z'],
      // Chicago is on CDT (UTC-5) from Sunday 8 March.
      [
        'every Monday at 8am, time zone: America/Chicago',
        weekly([1], '08:00', { timezone: 'America/Chicago' }),
        '2026-03-09T13:00:00Z',
      ],
      ['daily at 9 in the Eastern time zone', daily('09:00', { timezone: 'America/New_York' }), '2026-03-04T14:00:00Z'],
      ['every day at 9 Europe/Paris timezone', daily('09:00', { timezone: 'Europe/Paris' }), '2026-03-05T08:00:00Z'],
      ['every day at 9 in the Paris time zone', daily('09:00', { timezone: 'Europe/Paris' }), '2026-03-05T08:00:00Z'],
      ['every day at 9am Paris timezone', daily('09:00', { timezone: 'Europe/Paris' }), '2026-03-05T08:00:00Z'],
      // Tokyo is UTC+9: 09:00 is 00:00Z.
      ['daily at 9 in the Tokyo timezone', daily('09:00', { timezone: 'Asia/Tokyo' }), '2026-03-05T00:00:00Z'],
      ['TZ=UTC+2 every day at 10', daily('10:00', { timezone: 'Etc/GMT-2' }), '2026-03-05T08:00:00Z'],
      ['CRON_TZ=Europe/Paris 0 9 * * 1-5', weekly(WEEKDAYS, '09:00', { timezone: 'Europe/Paris' }), '2026-03-05T08:00:00Z'],
      // Was refused ("Could not tell how often"): a time alone is now daily, as above.
      ['at 9am', daily('09:00'), '2026-03-05T09:00:00Z'],
    ],
  },
  {
    // Denver: 02:00 MST jumps to 03:00 MDT at 09:00Z. Now: 23:30 MST on Saturday 7 March.
    name: 'issue 25, family 4 across DST: Denver springs forward on 2026-03-08',
    now: '2026-03-08T06:30:00Z',
    rows: [
      // 02:30 does not exist: read with the offset before the gap, 03:30 MDT (09:30Z).
      ['TZ=America/Denver daily at 2:30', daily('02:30', { timezone: 'America/Denver' }), '2026-03-08T09:30:00Z'],
      ['every day at 8am tz America/Denver', daily('08:00', { timezone: 'America/Denver' }), '2026-03-08T14:00:00Z'],
    ],
  },
  {
    // Issue 25: a typo correction keeps the word's first letter.
    name: 'issue 25: typos keep their first letter',
    now: WED,
    rows: [['every Moonday', weekly([1], '09:00'), '2026-03-09T09:00:00Z']],
  },
  {
    // Issue 25, family 1: day numbers without "day" or ordinals, beside a month unit.
    name: 'issue 25, family 1: bare lists of day numbers',
    now: WED,
    rows: [
      ['3,10,17 of each month at 08:00', monthly('08:00', { days_of_month: [3, 10, 17] }), '2026-03-10T08:00:00Z'],
      ['on 1, 15 monthly', monthly('09:00', { days_of_month: [1, 15] }), '2026-03-15T09:00:00Z'],
      ['monthly on 5 and 20', monthly('09:00', { days_of_month: [5, 20] }), '2026-03-05T09:00:00Z'],
      ['the 3, 10 and 17 of every month', monthly('09:00', { days_of_month: [3, 10, 17] }), '2026-03-10T09:00:00Z'],
      ['1, 15 and last of every month', monthly('09:00', { days_of_month: [1, 15, -1] }), '2026-03-15T09:00:00Z'],
      [
        '3,10,17 of every 2 months',
        monthly('09:00', { days_of_month: [3, 10, 17], interval: 2, anchor_date: '2026-03-10' }),
        '2026-03-10T09:00:00Z',
      ],
      [
        '1, 15 of every quarter',
        monthly('09:00', { days_of_month: [1, 15], months_of_year: [1, 4, 7, 10] }),
        '2026-04-01T09:00:00Z',
      ],
      ['monthly on 1,15 at 9am', monthly('09:00', { days_of_month: [1, 15] }), '2026-03-15T09:00:00Z'],
      ['15 of each month at 6pm', monthly('18:00', { days_of_month: [15] }), '2026-03-15T18:00:00Z'],
      ['3, 10, 17th of each month', monthly('09:00', { days_of_month: [3, 10, 17] }), '2026-03-10T09:00:00Z'],
      // Berlin is on CET (UTC+1): noon is 11:00Z.
      [
        '5, 20 of each month at noon Europe/Berlin',
        monthly('12:00', { days_of_month: [5, 20], timezone: 'Europe/Berlin' }),
        '2026-03-05T11:00:00Z',
      ],
    ],
  },
  {
    // 02:00 CET jumps to 03:00 CEST at 01:00Z on Sunday 29 March. Now: Saturday 28 March, 13:00 CET.
    name: 'issue 25, family 1 across DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-28T12:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      // 02:30 does not exist on the 29th: 03:30 CEST (01:30Z).
      [
        '29, 30 of each month at 02:30',
        monthly('02:30', { days_of_month: [29, 30], timezone: 'Europe/Berlin' }),
        '2026-03-29T01:30:00Z',
      ],
      [
        'on 28, 29 monthly at 9am',
        monthly('09:00', { days_of_month: [28, 29], timezone: 'Europe/Berlin' }),
        '2026-03-29T07:00:00Z',
      ],
    ],
  },
  {
    // Issue 25, family 3: "every day of the week" is the daily unit, narrowed by the days named.
    name: 'issue 25, family 3: every day of the week',
    now: WED,
    rows: [
      ['each day of the week from Tuesday through Thursday at 7pm', weekly([2, 3, 4], '19:00'), '2026-03-04T19:00:00Z'],
      ['every day of the week except Sunday', weekly([1, 2, 3, 4, 5, 6], '09:00'), '2026-03-05T09:00:00Z'],
      ['every day of the week', daily('09:00'), '2026-03-05T09:00:00Z'],
      ['7 days a week at 6am', daily('06:00'), '2026-03-05T06:00:00Z'],
      ['every day of the week, Monday to Friday, at 8:30', weekly(WEEKDAYS, '08:30'), '2026-03-05T08:30:00Z'],
      ['each day of the week in March', daily('09:00', { months_of_year: [3] }), '2026-03-05T09:00:00Z'],
      ['every day of the month at noon', daily('12:00'), '2026-03-04T12:00:00Z'],
      ['every day of the week but Sunday', weekly([1, 2, 3, 4, 5, 6], '09:00'), '2026-03-05T09:00:00Z'],
      ['every single day at 7am', daily('07:00'), '2026-03-05T07:00:00Z'],
      ['every day of the working week at 8', weekly(WEEKDAYS, '08:00'), '2026-03-05T08:00:00Z'],
      // Was a contradiction: "and every" joins the list as "and" does.
      ['every Monday and every Tuesday', weekly([1, 2], '09:00'), '2026-03-09T09:00:00Z'],
      ['on Monday and on Friday at 9', weekly([1, 5], '09:00'), '2026-03-06T09:00:00Z'],
      // crontab.guru's names with dashes.
      ['At 22:00 on every day-of-week from Monday through Friday.', weekly(WEEKDAYS, '22:00'), '2026-03-04T22:00:00Z'],
      [
        'At 04:00 on every day-of-month from 8 through 14.',
        monthly('04:00', { days_of_month: [8, 9, 10, 11, 12, 13, 14] }),
        '2026-03-08T04:00:00Z',
      ],
      ['Occurs every Monday', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      ['on every day of the week: Mon, Wed, Fri', weekly([1, 3, 5], '09:00'), '2026-03-06T09:00:00Z'],
    ],
  },
  {
    // 02:00 EST jumps to 03:00 EDT at 07:00Z on Sunday 8 March. Now: Saturday 7 March, 10:00 EST.
    name: 'issue 25, family 3 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-07T15:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // Saturday's 09:00 is past: Sunday 09:00 EDT (13:00Z).
      [
        'every day of the week from Saturday to Sunday at 9am',
        weekly([0, 6], '09:00', { timezone: 'America/New_York' }),
        '2026-03-08T13:00:00Z',
      ],
      ['7 days a week at 2:30am', daily('02:30', { timezone: 'America/New_York' }), '2026-03-08T07:30:00Z'],
    ],
  },
  {
    // Issue 25, family 6: the minute of each hour, in words; "to" counts back from the next hour.
    name: 'issue 25, family 6: minutes within the hour',
    now: WED,
    rows: [
      ['at twenty past every hour', hourly(1, '00:20', null), '2026-03-04T10:20:00Z'],
      ['every hour at quarter to', hourly(1, '00:45', null), '2026-03-04T10:45:00Z'],
      ['at ten to every hour', hourly(1, '00:50', null), '2026-03-04T10:50:00Z'],
      ['every hour at 5 minutes to the hour', hourly(1, '00:55', null), '2026-03-04T10:55:00Z'],
      // A quarter to every second hour: 01:45, 03:45 ... 09:45, 11:45.
      ['every 2 hours at quarter to', hourly(2, '01:45', null), '2026-03-04T11:45:00Z'],
      ['every hour on the half hour', hourly(1, '00:30', null), '2026-03-04T10:30:00Z'],
      ['every hour at the top of the hour', hourly(1, '00:00', null), '2026-03-04T11:00:00Z'],
      ['hourly at the bottom of the hour', hourly(1, '00:30', null), '2026-03-04T10:30:00Z'],
      ['every hour at 45', hourly(1, '00:45', null), '2026-03-04T10:45:00Z'],
      ['every hour at the 30 minute mark', hourly(1, '00:30', null), '2026-03-04T10:30:00Z'],
      ['every hour, at the half hour', hourly(1, '00:30', null), '2026-03-04T10:30:00Z'],
      ['every hour at xx:30', hourly(1, '00:30', null), '2026-03-04T10:30:00Z'],
      ['at the 15th minute of every hour', hourly(1, '00:15', null), '2026-03-04T10:15:00Z'],
      // crontab.guru: "through" a bare hour takes in that hour (cron's 0-20/2 runs at 20:23).
      ['At minute 23 past every 2nd hour from 0 through 20.', hourly(2, '00:23', '20:59'), '2026-03-04T10:23:00Z'],
      ['At minute 15 past every hour.', hourly(1, '00:15', null), '2026-03-04T10:15:00Z'],
      ['hourly at :45 on weekdays', hourly(1, '00:45', null, { days_of_week: WEEKDAYS }), '2026-03-04T10:45:00Z'],
      ['every hour at quarter to between 9am and 5pm', hourly(1, '09:45', '17:00'), '2026-03-04T10:45:00Z'],
    ],
  },
  {
    // 03:00 CEST falls back to 02:00 CET at 01:00Z. Now: 02:10 CEST (00:10Z).
    name: 'issue 25, family 6 across DST: Berlin falls back on 2026-10-25',
    now: '2026-10-25T00:10:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      // 02:45 CEST (00:45Z), then 02:45 again in CET (01:45Z).
      ['every hour at quarter to', hourly(1, '00:45', null, { timezone: 'Europe/Berlin' }), '2026-10-25T00:45:00Z'],
      // 01:45 CEST was 23:45Z yesterday; 03:45 CET is 02:45Z.
      ['every 2 hours at quarter to', hourly(2, '01:45', null, { timezone: 'Europe/Berlin' }), '2026-10-25T02:45:00Z'],
    ],
  },
  {
    // Issue 25, family 10: a window of the day in words; "from 9 to 5" ends in the afternoon.
    name: 'issue 25, family 10: sub-daily windows in words',
    now: WED,
    rows: [
      [
        'every 30 minutes from 8:15 am until 5:15 pm on weekdays',
        minutely(30, '08:15', '17:15', { days_of_week: WEEKDAYS }),
        '2026-03-04T10:15:00Z',
      ],
      ['starting at 9 and finishing at 17 every 2 hours', hourly(2, '09:00', '17:00'), '2026-03-04T11:00:00Z'],
      ['every hour beginning 8am, ending 6pm', hourly(1, '08:00', '18:00'), '2026-03-04T11:00:00Z'],
      ['every 2 hours between the hours of 8am and 6pm', hourly(2, '08:00', '18:00'), '2026-03-04T12:00:00Z'],
      ['every hour from 9 to 5', hourly(1, '09:00', '17:00'), '2026-03-04T11:00:00Z'],
      ['every 15 minutes between 10 and 2', minutely(15, '10:00', '14:00'), '2026-03-04T10:15:00Z'],
      [
        'every 2 hours starting at 8 and ending at 6pm on weekdays',
        hourly(2, '08:00', '18:00', { days_of_week: WEEKDAYS }),
        '2026-03-04T12:00:00Z',
      ],
      ['every 20 minutes starting at 9:10 and stopping at 11:50', minutely(20, '09:10', '11:50'), '2026-03-04T10:10:00Z'],
      // Bare hours right after the frequency.
      ['every hour 9-17', hourly(1, '09:00', '17:00'), '2026-03-04T11:00:00Z'],
      ['every 2 hours 8-20 on weekdays', hourly(2, '08:00', '20:00', { days_of_week: WEEKDAYS }), '2026-03-04T12:00:00Z'],
      ['every hour during 9am-5pm', hourly(1, '09:00', '17:00'), '2026-03-04T11:00:00Z'],
      // A part of the day moves an edge, as it moves a time.
      ['every 30 minutes from 9 in the morning until 5 in the afternoon', minutely(30, '09:00', '17:00'), '2026-03-04T10:30:00Z'],
      ['every 2 hours from 6 in the morning to 6 in the evening', hourly(2, '06:00', '18:00'), '2026-03-04T12:00:00Z'],
      ['every hour from 8am to 8 at night', hourly(1, '08:00', '20:00'), '2026-03-04T11:00:00Z'],
      ['every 2 hours, 8 to 8', hourly(2, '08:00', '20:00'), '2026-03-04T12:00:00Z'],
      [
        'At minute 0 past every hour from 9 through 17 on every day-of-week from Monday through Friday.',
        hourly(1, '09:00', '17:59', { days_of_week: WEEKDAYS }),
        '2026-03-04T11:00:00Z',
      ],
      ['every hour between 9 to 5', hourly(1, '09:00', '17:00'), '2026-03-04T11:00:00Z'],
      // Without a frequency, "starting at 9am" is the time of day.
      ['every day starting at 9am', daily('09:00'), '2026-03-05T09:00:00Z'],
    ],
  },
  {
    // 02:00 EST jumps to 03:00 EDT at 07:00Z. Now: 01:30 EST.
    name: 'issue 25, family 10 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-08T06:30:00Z',
    timezone: 'America/New_York',
    rows: [
      // 02:00 does not exist: it runs once, moved past the gap, at 03:00 EDT (07:00Z).
      [
        'every hour starting at 1 and ending at 4',
        hourly(1, '01:00', '04:00', { timezone: 'America/New_York' }),
        '2026-03-08T07:00:00Z',
      ],
      [
        'every 30 minutes from 1:30 until 3:30',
        minutely(30, '01:30', '03:30', { timezone: 'America/New_York' }),
        '2026-03-08T07:00:00Z',
      ],
    ],
  },
  {
    // Issue 25, family 5: "N times a <unit>" is the unit, with exactly N days named in it; a
    // daily word beside a month and days of the month gives way to them.
    name: 'issue 25, family 5: a frequency word narrowed by a rule',
    now: WED,
    rows: [
      ['daily on the 5th and 20th of the month', monthly('09:00', { days_of_month: [5, 20] }), '2026-03-05T09:00:00Z'],
      ['twice a month, on the 3rd and the 18th', monthly('09:00', { days_of_month: [3, 18] }), '2026-03-18T09:00:00Z'],
      ['three times a week on Mon, Wed and Fri', weekly([1, 3, 5], '09:00'), '2026-03-06T09:00:00Z'],
      ['twice weekly on Tuesdays and Fridays at 7am', weekly([2, 5], '07:00'), '2026-03-06T07:00:00Z'],
      ['semi-monthly on the 1st and 15th', monthly('09:00', { days_of_month: [1, 15] }), '2026-03-15T09:00:00Z'],
      ['twice a year on January 1 and July 1', yearly([1, 7], '09:00', { days_of_month: [1] }), '2026-07-01T09:00:00Z'],
      [
        'every day on the first Monday of the month',
        monthly('09:00', { days_of_week: [1], weeks_of_month: [1] }),
        '2026-04-06T09:00:00Z',
      ],
      ['daily on the last day of the month at 6pm', monthly('18:00', { days_of_month: [-1] }), '2026-03-31T18:00:00Z'],
      ['2 times a month on the 10th and 25th', monthly('09:00', { days_of_month: [10, 25] }), '2026-03-10T09:00:00Z'],
      ['3x a week on Mon, Wed, Fri', weekly([1, 3, 5], '09:00'), '2026-03-06T09:00:00Z'],
      ['twice-monthly on the 1st and 15th', monthly('09:00', { days_of_month: [1, 15] }), '2026-03-15T09:00:00Z'],
      ['semi-annually on January 1 and July 1', yearly([1, 7], '09:00', { days_of_month: [1] }), '2026-07-01T09:00:00Z'],
      [
        'four times a year on the 1st of Jan, Apr, Jul and Oct',
        yearly([1, 4, 7, 10], '09:00', { days_of_month: [1] }),
        '2026-04-01T09:00:00Z',
      ],
      // cronstrue: the month named narrows "of the month".
      [
        'At 12:00 AM, on day 1 of the month, only in January',
        yearly([1], '00:00', { days_of_month: [1] }),
        '2027-01-01T00:00:00Z',
      ],
      // A plain week gives way to the days of the month too.
      [
        'weekly on the first Monday of the month',
        monthly('09:00', { days_of_week: [1], weeks_of_month: [1] }),
        '2026-04-06T09:00:00Z',
      ],
    ],
  },
  {
    // 02:00 EST jumps to 03:00 EDT at 07:00Z on Sunday 8 March. Now: Wednesday 4 March.
    name: 'issue 25, family 5 across DST: New York springs forward on 2026-03-08',
    now: WED,
    timezone: 'America/New_York',
    rows: [
      // Sunday 8 March 02:30 does not exist: 03:30 EDT (07:30Z).
      [
        'twice a week on Sundays and Wednesdays at 2:30am',
        weekly([0, 3], '02:30', { timezone: 'America/New_York' }),
        '2026-03-08T07:30:00Z',
      ],
      [
        'daily on the 8th and 20th of the month at 9am',
        monthly('09:00', { days_of_month: [8, 20], timezone: 'America/New_York' }),
        '2026-03-08T13:00:00Z',
      ],
    ],
  },
  {
    // Issue 25, family 8: weeks of the month are the nth weekday (days 1-7 are the first week).
    name: 'issue 25, family 8: weeks of the month in other words',
    now: WED,
    rows: [
      [
        'in the first and third week of each month on Mondays',
        monthly('09:00', { days_of_week: [1], weeks_of_month: [1, 3] }),
        '2026-03-16T09:00:00Z',
      ],
      ['on the 2 Fri of every month', monthly('09:00', { days_of_week: [5], weeks_of_month: [2] }), '2026-03-13T09:00:00Z'],
      ['on the 4 Wed monthly', monthly('09:00', { days_of_week: [3], weeks_of_month: [4] }), '2026-03-25T09:00:00Z'],
      [
        'Mondays in the last week of the month at 9',
        monthly('09:00', { days_of_week: [1], weeks_of_month: [-1] }),
        '2026-03-30T09:00:00Z',
      ],
      [
        'in the final week of the month on Friday',
        monthly('09:00', { days_of_week: [5], weeks_of_month: [-1] }),
        '2026-03-27T09:00:00Z',
      ],
      [
        'in week 2 of every month on Tuesday',
        monthly('09:00', { days_of_week: [2], weeks_of_month: [2] }),
        '2026-03-10T09:00:00Z',
      ],
      ['the 1 and 3 Mon of each month', monthly('09:00', { days_of_week: [1], weeks_of_month: [1, 3] }), '2026-03-16T09:00:00Z'],
      [
        'on Friday of the second week of every month',
        monthly('09:00', { days_of_week: [5], weeks_of_month: [2] }),
        '2026-03-13T09:00:00Z',
      ],
      // "every" before a week of the month (not "every second week", which is every two weeks).
      [
        'every 2nd week of the month on Tuesday',
        monthly('09:00', { days_of_week: [2], weeks_of_month: [2] }),
        '2026-03-10T09:00:00Z',
      ],
      [
        'in the second week of every quarter on Thursday',
        monthly('09:00', { days_of_week: [4], weeks_of_month: [2], months_of_year: [1, 4, 7, 10] }),
        '2026-04-09T09:00:00Z',
      ],
      [
        'every year in the first week of March on Mondays',
        yearly([3], '09:00', { days_of_week: [1], weeks_of_month: [1] }),
        '2027-03-01T09:00:00Z',
      ],
    ],
  },
  {
    // 02:00 CET jumps to 03:00 CEST at 01:00Z on Sunday 29 March, the last Sunday of March.
    name: 'issue 25, family 8 across DST: Berlin springs forward on 2026-03-29',
    now: WED,
    timezone: 'Europe/Berlin',
    rows: [
      // 02:30 does not exist: 03:30 CEST (01:30Z).
      [
        'Sundays in the last week of the month at 2:30',
        monthly('02:30', { days_of_week: [0], weeks_of_month: [-1], timezone: 'Europe/Berlin' }),
        '2026-03-29T01:30:00Z',
      ],
      [
        'on the 5 Sun of every month at 9am',
        monthly('09:00', { days_of_week: [0], weeks_of_month: [5], timezone: 'Europe/Berlin' }),
        '2026-03-29T07:00:00Z',
      ],
    ],
  },
  {
    // Issue 25, family 7: months left out are months_of_year without them.
    name: 'issue 25, family 7: month exclusions',
    now: WED,
    rows: [
      [
        'on the 5th of every month except August',
        monthly('09:00', { days_of_month: [5], months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
        '2026-03-05T09:00:00Z',
      ],
      [
        'every Monday except in July and August',
        weekly([1], '09:00', { months_of_year: [1, 2, 3, 4, 5, 6, 9, 10, 11, 12] }),
        '2026-03-09T09:00:00Z',
      ],
      [
        'every day except in August',
        daily('09:00', { months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
        '2026-03-05T09:00:00Z',
      ],
      [
        'weekdays except December at 8am',
        weekly(WEEKDAYS, '08:00', { months_of_year: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }),
        '2026-03-05T08:00:00Z',
      ],
      [
        'daily excluding June through August',
        daily('09:00', { months_of_year: [1, 2, 3, 4, 5, 9, 10, 11, 12] }),
        '2026-03-05T09:00:00Z',
      ],
      [
        'every day except Sunday and August',
        weekly([1, 2, 3, 4, 5, 6], '09:00', { months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
        '2026-03-05T09:00:00Z',
      ],
      [
        'every day from March to October except August',
        daily('09:00', { months_of_year: [3, 4, 5, 6, 7, 9, 10] }),
        '2026-03-05T09:00:00Z',
      ],
      [
        'first day of every quarter except October',
        monthly('09:00', { days_of_month: [1], months_of_year: [1, 4, 7] }),
        '2026-04-01T09:00:00Z',
      ],
      [
        'every hour except in August',
        hourly(1, '00:00', null, { months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
        '2026-03-04T11:00:00Z',
      ],
      [
        'on the 1st and 15th of every month except July and August',
        monthly('09:00', { days_of_month: [1, 15], months_of_year: [1, 2, 3, 4, 5, 6, 9, 10, 11, 12] }),
        '2026-03-15T09:00:00Z',
      ],
      [
        'last Friday of the month except December',
        monthly('09:00', { days_of_week: [5], weeks_of_month: [-1], months_of_year: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }),
        '2026-03-27T09:00:00Z',
      ],
      [
        'every 3 days except in August',
        daily('09:00', { interval: 3, anchor_date: '2026-03-05', months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
        '2026-03-05T09:00:00Z',
      ],
      // March is left out: the first Monday after it is 6 April.
      [
        'every Monday except March',
        weekly([1], '09:00', { months_of_year: [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12] }),
        '2026-04-06T09:00:00Z',
      ],
      [
        'every month but August on the 5th',
        monthly('09:00', { days_of_month: [5], months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
        '2026-03-05T09:00:00Z',
      ],
      [
        'every weekday, skipping August',
        weekly(WEEKDAYS, '09:00', { months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
        '2026-03-05T09:00:00Z',
      ],
      // RFC 5545's example, the other way round: only the months named.
      [
        'Every Thursday, but only during June, July, and August, forever',
        weekly([4], '09:00', { months_of_year: [6, 7, 8] }),
        '2026-06-04T09:00:00Z',
      ],
    ],
  },
  {
    // 02:00 CET jumps to 03:00 CEST at 01:00Z on Sunday 29 March.
    name: 'issue 25, family 7 across DST: Berlin springs forward on 2026-03-29',
    now: WED,
    timezone: 'Europe/Berlin',
    rows: [
      // 02:30 does not exist: 03:30 CEST (01:30Z).
      [
        'on the 29th of every month except April at 2:30',
        monthly('02:30', {
          days_of_month: [29],
          months_of_year: [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12],
          timezone: 'Europe/Berlin',
        }),
        '2026-03-29T01:30:00Z',
      ],
      [
        'last Sunday of the month except February at 2:30',
        monthly('02:30', {
          days_of_week: [0],
          weeks_of_month: [-1],
          months_of_year: [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
          timezone: 'Europe/Berlin',
        }),
        '2026-03-29T01:30:00Z',
      ],
    ],
  },
  {
    // Issue 25, family 9: a start relative to today fixes the first run, and with an interval the
    // anchor; with no day named, the start's own day is the day. Wednesday 4 March 2026.
    name: 'issue 25, family 9: start phrases relative to today',
    now: WED,
    rows: [
      [
        'every other week starting next Tuesday',
        weekly([2], '09:00', { interval: 2, anchor_date: '2026-03-10' }),
        '2026-03-10T09:00:00Z',
      ],
      ['every weekday from tomorrow onwards', weekly(WEEKDAYS, '09:00'), '2026-03-05T09:00:00Z'],
      // Interval 1 keeps no anchor: the start holds back the first run only.
      ['weekly starting next Tuesday', weekly([2], '09:00'), '2026-03-10T09:00:00Z'],
      ['monthly starting next month', monthly('09:00', { days_of_month: [1] }), '2026-04-01T09:00:00Z'],
      ['every 2 weeks starting Monday', weekly([1], '09:00', { interval: 2, anchor_date: '2026-03-09' }), '2026-03-09T09:00:00Z'],
      ['every 3 days starting today at 6pm', daily('18:00', { interval: 3, anchor_date: '2026-03-04' }), '2026-03-04T18:00:00Z'],
      // Friday 6 March is held back: next week's Friday.
      ['every Friday as of next week', weekly([5], '09:00'), '2026-03-13T09:00:00Z'],
      ['every Monday with effect from next week', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      // Next week's Friday (13 March), not this week's (6 March).
      ['weekly beginning next Friday at 3pm', weekly([5], '15:00'), '2026-03-13T15:00:00Z'],
      ['yearly starting tomorrow', yearly([3], '09:00', { days_of_month: [5] }), '2026-03-05T09:00:00Z'],
      [
        'every 2 weeks starting next Wednesday',
        weekly([3], '09:00', { interval: 2, anchor_date: '2026-03-11' }),
        '2026-03-11T09:00:00Z',
      ],
      [
        'every other month starting next month on the 15th',
        monthly('09:00', { days_of_month: [15], interval: 2, anchor_date: '2026-04-15' }),
        '2026-04-15T09:00:00Z',
      ],
      ['daily at 9am starting next month', daily('09:00'), '2026-04-01T09:00:00Z'],
      ['every day effective immediately', daily('09:00'), '2026-03-05T09:00:00Z'],
      // Two weeks from Wednesday 4 March is Wednesday 18 March: the first Monday after it is the 23rd.
      ['starting in 2 weeks, every Monday', weekly([1], '09:00'), '2026-03-23T09:00:00Z'],
      // Saturday 7 March: no day named, so Saturdays.
      [
        'every 2 weeks starting in 3 days',
        weekly([6], '09:00', { interval: 2, anchor_date: '2026-03-07' }),
        '2026-03-07T09:00:00Z',
      ],
      ['starting this coming Monday, every week', weekly([1], '09:00'), '2026-03-09T09:00:00Z'],
      // 1 April 2026 is a Wednesday.
      [
        'every 2 weeks starting on the 1st of next month',
        weekly([3], '09:00', { interval: 2, anchor_date: '2026-04-01' }),
        '2026-04-01T09:00:00Z',
      ],
      // Was refused ("needs an interval"): a written start holds back an interval-1 schedule too.
      ['every Monday starting 30 November 2026', weekly([1], '09:00'), '2026-11-30T09:00:00Z'],
      // A written start with no day named picks its own weekday, as a relative one does.
      [
        'every 2 weeks starting Tuesday 1 December 2026',
        weekly([2], '09:00', { interval: 2, anchor_date: '2026-12-01' }),
        '2026-12-01T09:00:00Z',
      ],
    ],
  },
  {
    // Wednesday 4 March 2026, 05:00 UTC: today's 06:00 run is still ahead.
    name: 'issue 25, family 9: the start holds back a run due today',
    now: '2026-03-04T05:00:00Z',
    rows: [
      ['daily beginning tomorrow at 6', daily('06:00'), '2026-03-05T06:00:00Z'],
      ['every day at 6am starting today', daily('06:00'), '2026-03-04T06:00:00Z'],
    ],
  },
  {
    // "Tomorrow" is the zone's: 23:30Z on Wednesday is already Thursday 08:30 in Tokyo.
    name: "issue 25, family 9: today is the schedule zone's today",
    now: '2026-03-04T23:30:00Z',
    timezone: 'Asia/Tokyo',
    rows: [['daily starting tomorrow at 9', daily('09:00', { timezone: 'Asia/Tokyo' }), '2026-03-06T00:00:00Z']],
  },
  {
    // 02:00 EST jumps to 03:00 EDT at 07:00Z on Sunday 8 March. Now: Friday 6 March, 07:00 EST.
    name: 'issue 25, family 9 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-06T12:00:00Z',
    timezone: 'America/New_York',
    rows: [
      // 02:30 does not exist: 03:30 EDT (07:30Z).
      [
        'every 2 weeks starting this Sunday at 2:30am',
        weekly([0], '02:30', { interval: 2, anchor_date: '2026-03-08', timezone: 'America/New_York' }),
        '2026-03-08T07:30:00Z',
      ],
      ['weekly starting this Sunday at 9am', weekly([0], '09:00', { timezone: 'America/New_York' }), '2026-03-08T13:00:00Z'],
      // "next Sunday" is next week's: 15 March, on EDT (UTC-4).
      ['weekly starting next Sunday at 9am', weekly([0], '09:00', { timezone: 'America/New_York' }), '2026-03-15T13:00:00Z'],
    ],
  },
  {
    // Issue 46, family 1: several times a day ("schedule_times"), in words and as cron lists.
    name: 'issue 46, family 1: several times a day',
    now: WED,
    rows: [
      ['at 9am and 5pm', daily('09:00', { schedule_times: ['09:00', '17:00'] }), '2026-03-04T17:00:00Z'],
      ['every day at 8:00 and 20:00', daily('08:00', { schedule_times: ['08:00', '20:00'] }), '2026-03-04T20:00:00Z'],
      ['at noon and 5pm on weekdays', weekly(WEEKDAYS, '12:00', { schedule_times: ['12:00', '17:00'] }), '2026-03-04T12:00:00Z'],
      ['0 9,17 * * 1-5', weekly(WEEKDAYS, '09:00', { schedule_times: ['09:00', '17:00'] }), '2026-03-04T17:00:00Z'],
      ['cron(0 9,17 ? * MON-FRI *)', weekly(WEEKDAYS, '09:00', { schedule_times: ['09:00', '17:00'] }), '2026-03-04T17:00:00Z'],
      ['at 9, 13 and 17', daily('09:00', { schedule_times: ['09:00', '13:00', '17:00'] }), '2026-03-04T13:00:00Z'],
      ['twice a day at 9am and 5pm', daily('09:00', { schedule_times: ['09:00', '17:00'] }), '2026-03-04T17:00:00Z'],
      ['twice daily at 8 and 20', daily('08:00', { schedule_times: ['08:00', '20:00'] }), '2026-03-04T20:00:00Z'],
      ['every Monday at 8am and 6pm', weekly([1], '08:00', { schedule_times: ['08:00', '18:00'] }), '2026-03-09T08:00:00Z'],
      [
        'on the 1st of every month at 08:30, 12:30 and 16:30',
        monthly('08:30', { days_of_month: [1], schedule_times: ['08:30', '12:30', '16:30'] }),
        '2026-04-01T08:30:00Z',
      ],
      [
        '30 8,12,16 1 * *',
        monthly('08:30', { days_of_month: [1], schedule_times: ['08:30', '12:30', '16:30'] }),
        '2026-04-01T08:30:00Z',
      ],
      ['0,30 9 * * *', daily('09:00', { schedule_times: ['09:00', '09:30'] }), '2026-03-05T09:00:00Z'],
      // Berlin is on CET (UTC+1) until 29 March: 21:00 CET is 20:00Z.
      [
        'every day at 9am and 9pm Europe/Berlin',
        daily('09:00', { schedule_times: ['09:00', '21:00'], timezone: 'Europe/Berlin' }),
        '2026-03-04T20:00:00Z',
      ],
      [
        'every 2 days at 9am and 9pm',
        daily('09:00', { schedule_times: ['09:00', '21:00'], interval: 2, anchor_date: '2026-03-04' }),
        '2026-03-04T21:00:00Z',
      ],
      ['at 12am (midnight) and noon', daily('00:00', { schedule_times: ['00:00', '12:00'] }), '2026-03-04T12:00:00Z'],
      ['every evening at 6 and 9', daily('18:00', { schedule_times: ['18:00', '21:00'] }), '2026-03-04T18:00:00Z'],
      ['at 5pm and 9am', daily('09:00', { schedule_times: ['09:00', '17:00'] }), '2026-03-04T17:00:00Z'],
      ['at 9am and 9am', daily('09:00'), '2026-03-05T09:00:00Z'], // one time said twice
    ],
  },
  {
    // 01:00 EST is 06:00Z; 02:00 EST jumps to 03:00 EDT (07:00Z). 02:30 runs at 03:30 EDT (07:30Z).
    name: 'issue 46, family 1 across DST: New York springs forward on 2026-03-08',
    now: '2026-03-08T06:30:00Z', // 01:30 EST
    timezone: 'America/New_York',
    rows: [
      [
        'every day at 1:30am and 2:30am',
        daily('01:30', { schedule_times: ['01:30', '02:30'], timezone: 'America/New_York' }),
        '2026-03-08T07:30:00Z',
      ],
      [
        '30 1,2 * * *',
        daily('01:30', { schedule_times: ['01:30', '02:30'], timezone: 'America/New_York' }),
        '2026-03-08T07:30:00Z',
      ],
      // 03:00 EDT (07:00Z) comes before 02:30 moved past the gap (07:30Z).
      [
        'at 2:30am and 3am',
        daily('02:30', { schedule_times: ['02:30', '03:00'], timezone: 'America/New_York' }),
        '2026-03-08T07:00:00Z',
      ],
    ],
  },
  {
    // 03:00 CEST (01:00Z) goes back to 02:00 CET: 02:30 happens at 00:30Z and 01:30Z, and runs at the first.
    name: 'issue 46, family 1 across DST: Berlin falls back on 2026-10-25',
    now: '2026-10-25T00:30:00Z', // 02:30 CEST, the first 02:30
    timezone: 'Europe/Berlin',
    rows: [
      [
        'every day at 2:30 and 3:30',
        daily('02:30', { schedule_times: ['02:30', '03:30'], timezone: 'Europe/Berlin' }),
        '2026-10-25T02:30:00Z', // 03:30 CET; not 02:30 CET (01:30Z) again
      ],
    ],
  },
  {
    // Issue 46, family 2: how people write times, intervals, day names and zones.
    name: 'issue 46, family 2: formats and zones',
    now: WED,
    rows: [
      ['08h30 every day', daily('08:30'), '2026-03-05T08:30:00Z'],
      ['every day at 8h05', daily('08:05'), '2026-03-05T08:05:00Z'],
      ['at 18h on weekdays', weekly(WEEKDAYS, '18:00'), '2026-03-04T18:00:00Z'],
      ['every day at 9 o clock', daily('09:00'), '2026-03-05T09:00:00Z'],
      ['rate(1 day)', daily('00:00'), '2026-03-05T00:00:00Z'],
      ['rate(3 days)', daily('00:00', { interval: 3, anchor_date: '2026-03-05' }), '2026-03-05T00:00:00Z'],
      // 600 minutes since midnight: the 86th step of 7 is 602, 10:02.
      ['every 7 minutes', minutely(7, '00:00', null), '2026-03-04T10:02:00Z'],
      ['rate(7 minutes)', minutely(7, '00:00', null), '2026-03-04T10:02:00Z'],
      ['every 7 minutes, restarting at midnight', minutely(7, '00:00', null), '2026-03-04T10:02:00Z'],
      ['every wendsday at 9', weekly([3], '09:00'), '2026-03-11T09:00:00Z'],
      ['every wensday at 11am', weekly([3], '11:00'), '2026-03-04T11:00:00Z'],
      ['every day at 9am in Berlin', daily('09:00', { timezone: 'Europe/Berlin' }), '2026-03-05T08:00:00Z'],
      ['at 8:30 (New York) on weekdays', weekly(WEEKDAYS, '08:30', { timezone: 'America/New_York' }), '2026-03-04T13:30:00Z'],
      ['weekdays at 9 in Japan', weekly(WEEKDAYS, '09:00', { timezone: 'Asia/Tokyo' }), '2026-03-05T00:00:00Z'],
      ['every day at 9am CET/CEST', daily('09:00', { timezone: 'Europe/Berlin' }), '2026-03-05T08:00:00Z'],
      ['every day at 9am EST/EDT', daily('09:00', { timezone: 'America/New_York' }), '2026-03-04T14:00:00Z'],
      ['every day at 9 in Paris time', daily('09:00', { timezone: 'Europe/Paris' }), '2026-03-05T08:00:00Z'],
      // 1 April 2026 is a Wednesday: the first Monday is 6 April, 08:30 JST is 23:30Z the day before.
      [
        'on the first Monday of each month at 8:30 in Tokyo',
        monthly('08:30', { days_of_week: [1], weeks_of_month: [1], timezone: 'Asia/Tokyo' }),
        '2026-04-05T23:30:00Z',
      ],
      ['every day at 9 (Los Angeles)', daily('09:00', { timezone: 'America/Los_Angeles' }), '2026-03-04T17:00:00Z'],
      ['every day at 9 UTC+02:00', daily('09:00', { timezone: 'Etc/GMT-2' }), '2026-03-05T07:00:00Z'],
    ],
  },
  {
    // 02:00 CET (01:00Z) jumps to 03:00 CEST: 02:30 runs at 03:30 CEST (01:30Z).
    name: 'issue 46, family 2 across DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-28T12:00:00Z',
    rows: [
      ['every day at 2:30 in Berlin', daily('02:30', { timezone: 'Europe/Berlin' }), '2026-03-29T01:30:00Z'],
      ['every day at 08h30 (Berlin)', daily('08:30', { timezone: 'Europe/Berlin' }), '2026-03-29T06:30:00Z'],
      ['every day at 2:30 CET/CEST', daily('02:30', { timezone: 'Europe/Berlin' }), '2026-03-29T01:30:00Z'],
    ],
  },
  {
    // Every 7 minutes around the gap: 01:59 CET (00:59Z) ran; 03:02 CEST (01:02Z) is the next
    // slot that exists, before 02:06, which is in the gap and runs moved past it (01:06Z).
    name: 'issue 46, family 2 across DST: every 7 minutes as Berlin springs forward',
    now: '2026-03-29T00:59:00Z',
    rows: [['every 7 minutes CET/CEST', minutely(7, '00:00', null, { timezone: 'Europe/Berlin' }), '2026-03-29T01:02:00Z']],
  },
  {
    // Issue 46, family 3: working days of the month (set_positions, RFC 5545 BYSETPOS).
    // March 2026: Sunday 1 to Tuesday 31; April 2026 starts on a Wednesday.
    name: 'issue 46, family 3: working days of the month',
    now: WED,
    rows: [
      [
        'first business day of the month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [1] }),
        '2026-04-01T09:00:00Z',
      ],
      [
        'first business day of every month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [1] }),
        '2026-04-01T09:00:00Z',
      ],
      ['last weekday of every month', monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [-1] }), '2026-03-31T09:00:00Z'],
      [
        'every last weekday of the month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [-1] }),
        '2026-03-31T09:00:00Z',
      ],
      [
        'last business day of the month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [-1] }),
        '2026-03-31T09:00:00Z',
      ],
      [
        'the last working day of each month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [-1] }),
        '2026-03-31T09:00:00Z',
      ],
      // March's third working day is Wednesday 4 (08:00 has passed); April's is Friday 3.
      [
        'on the 3rd working day of each month at 8am',
        monthly('08:00', { days_of_week: WEEKDAYS, set_positions: [3] }),
        '2026-04-03T08:00:00Z',
      ],
      [
        'first and last weekday of the month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [1, -1] }),
        '2026-03-31T09:00:00Z',
      ],
      [
        'last business day of the quarter',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [-1], months_of_year: [3, 6, 9, 12] }),
        '2026-03-31T09:00:00Z',
      ],
      [
        'first business day of every quarter',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [1], months_of_year: [1, 4, 7, 10] }),
        '2026-04-01T09:00:00Z',
      ],
      // 1 January 2027 is a Friday.
      [
        'every year on the first business day of January',
        yearly([1], '09:00', { days_of_week: WEEKDAYS, set_positions: [1] }),
        '2027-01-01T09:00:00Z',
      ],
      [
        'every 2 months on the first business day',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [1], interval: 2, anchor_date: '2026-04-01' }),
        '2026-04-01T09:00:00Z',
      ],
      // March's first weekend day is Sunday 1; April's Saturday 4.
      [
        'first weekend day of the month at 10am',
        monthly('10:00', { days_of_week: [0, 6], set_positions: [1] }),
        '2026-04-04T10:00:00Z',
      ],
      // Berlin is on CEST from 29 March: 17:00 is 15:00Z.
      [
        'last weekday of every month at 5pm Europe/Berlin',
        monthly('17:00', { days_of_week: WEEKDAYS, set_positions: [-1], timezone: 'Europe/Berlin' }),
        '2026-03-31T15:00:00Z',
      ],
      [
        'first business day of the month at 08:00 and 17:00',
        monthly('08:00', { days_of_week: WEEKDAYS, set_positions: [1], schedule_times: ['08:00', '17:00'] }),
        '2026-04-01T08:00:00Z',
      ],
    ],
  },
  {
    // 1 August 2026 is a Saturday: the first business day is Monday 3 August.
    name: 'issue 46, family 3: a month that starts on a weekend',
    now: '2026-07-15T00:00:00Z',
    rows: [
      [
        'first business day of the month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [1] }),
        '2026-08-03T09:00:00Z',
      ],
    ],
  },
  {
    // 31 May 2026 is a Sunday: the last business day is Friday 29 May.
    name: 'issue 46, family 3: a month that ends on a weekend',
    now: '2026-05-15T00:00:00Z',
    rows: [
      [
        'last business day of the month',
        monthly('09:00', { days_of_week: WEEKDAYS, set_positions: [-1] }),
        '2026-05-29T09:00:00Z',
      ],
    ],
  },
  {
    // 31 March 2026 is a Tuesday: the last weekend day is Sunday 29, when 02:30 does not exist
    // in Berlin and runs at 03:30 CEST (01:30Z).
    name: 'issue 46, family 3 across DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-20T00:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      [
        'last weekend day of the month at 2:30',
        monthly('02:30', { days_of_week: [0, 6], set_positions: [-1], timezone: 'Europe/Berlin' }),
        '2026-03-29T01:30:00Z',
      ],
    ],
  },
  {
    // October 2026's first weekend day is Saturday 3 (past); November's is Sunday 1, when 01:30
    // happens twice in New York: the first, 01:30 EDT (05:30Z).
    name: 'issue 46, family 3 across DST: New York falls back on 2026-11-01',
    now: '2026-10-20T00:00:00Z',
    timezone: 'America/New_York',
    rows: [
      [
        'first weekend day of the month at 1:30am',
        monthly('01:30', { days_of_week: [0, 6], set_positions: [1], timezone: 'America/New_York' }),
        '2026-11-01T05:30:00Z',
      ],
    ],
  },
  {
    // Issue 46, family 4: one-off runs ("once" on anchor_date). Wednesday 4 March 2026, 10:00Z:
    // "this Tuesday" is 10 March, "next Friday" the Friday of next week, 13 March.
    name: 'issue 46, family 4: one-off runs',
    now: WED,
    rows: [
      ['tomorrow at 9', once('2026-03-05', '09:00'), '2026-03-05T09:00:00Z'],
      ['tomorrow', once('2026-03-05', '09:00'), '2026-03-05T09:00:00Z'],
      ['today at 5pm', once('2026-03-04', '17:00'), '2026-03-04T17:00:00Z'],
      ['this Tuesday at 4pm', once('2026-03-10', '16:00'), '2026-03-10T16:00:00Z'],
      ['next Friday at 3pm', once('2026-03-13', '15:00'), '2026-03-13T15:00:00Z'],
      ['next Friday', once('2026-03-13', '09:00'), '2026-03-13T09:00:00Z'],
      ['coming Monday at 8', once('2026-03-09', '08:00'), '2026-03-09T08:00:00Z'],
      ['on 3 March 2027 at 14:00', once('2027-03-03', '14:00'), '2027-03-03T14:00:00Z'],
      ['once on Wednesday 3 March 2027 at 14:00', once('2027-03-03', '14:00'), '2027-03-03T14:00:00Z'],
      ['2027-03-03 at 14:00', once('2027-03-03', '14:00'), '2027-03-03T14:00:00Z'],
      ['April 9th at 7am', once('2026-04-09', '07:00'), '2026-04-09T07:00:00Z'],
      ['April 9th 2027 at 7am', once('2027-04-09', '07:00'), '2027-04-09T07:00:00Z'],
      ['January 1st at midnight', once('2027-01-01', '00:00'), '2027-01-01T00:00:00Z'],
      ['the 25th of December', once('2026-12-25', '09:00'), '2026-12-25T09:00:00Z'],
      // 3 March 2026 has passed: the next 3 March; 12:00 CET is 11:00Z.
      ['on 3 March at noon Europe/Berlin', once('2027-03-03', '12:00', { timezone: 'Europe/Berlin' }), '2027-03-03T11:00:00Z'],
      ['the fourth Thursday of November', once('2026-11-26', '09:00'), '2026-11-26T09:00:00Z'],
      ['tomorrow at 9am and 5pm', once('2026-03-05', '09:00', { schedule_times: ['09:00', '17:00'] }), '2026-03-05T09:00:00Z'],
    ],
  },
  {
    // 01:30 happens twice in New York on Sunday 1 November 2026: the first, 01:30 EDT (05:30Z).
    name: 'issue 46, family 4 across DST: New York falls back on 2026-11-01',
    now: '2026-10-31T12:00:00Z',
    timezone: 'America/New_York',
    rows: [['tomorrow at 1:30am', once('2026-11-01', '01:30', { timezone: 'America/New_York' }), '2026-11-01T05:30:00Z']],
  },
  {
    // Issue 46, family 4: ends. A date ends with its last second in the zone; "for 4 weeks" from
    // Wednesday 4 March with Tuesday 31 March; "10 times" with the tenth run.
    name: 'issue 46, family 4: ends',
    now: WED,
    rows: [
      ['every day until December 31', daily('09:00', { until: '2026-12-31T23:59:59Z' }), '2026-03-05T09:00:00Z'],
      ['every day until 31 December 2026', daily('09:00', { until: '2026-12-31T23:59:59Z' }), '2026-03-05T09:00:00Z'],
      [
        'every weekday at 9 until 31 December 2026 Europe/Berlin',
        weekly(WEEKDAYS, '09:00', { timezone: 'Europe/Berlin', until: '2026-12-31T22:59:59Z' }),
        '2026-03-05T08:00:00Z',
      ],
      ['every Monday for 4 weeks', weekly([1], '09:00', { until: '2026-03-31T23:59:59Z' }), '2026-03-09T09:00:00Z'],
      ['every Monday for 6 weeks', weekly([1], '09:00', { until: '2026-04-14T23:59:59Z' }), '2026-03-09T09:00:00Z'],
      ['daily for the next three months', daily('09:00', { until: '2026-06-03T23:59:59Z' }), '2026-03-05T09:00:00Z'],
      ['every day 10 times', daily('09:00', { until: '2026-03-14T09:00:00Z', count: 10 }), '2026-03-05T09:00:00Z'],
      // Thu 5 March, then Tue and Thu every other week: 17, 19, 31 March, 2, 14, 16, 28 April.
      [
        'Every other week on Tuesday and Thursday, for 8 occurrences',
        weekly([2, 4], '09:00', { interval: 2, anchor_date: '2026-03-05', until: '2026-04-28T09:00:00Z', count: 8 }),
        '2026-03-05T09:00:00Z',
      ],
      ['every hour until 5 March 2026', hourly(1, '00:00', null, { until: '2026-03-05T23:59:59Z' }), '2026-03-04T11:00:00Z'],
    ],
  },
  {
    // 02:30 does not exist in Berlin on 29 March 2026 and runs at 03:30 CEST (01:30Z); CEST ends
    // a day at 22:00Z.
    name: 'issue 46, family 4 across DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-28T12:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      [
        'every day at 2:30 until 30 March 2026',
        daily('02:30', { timezone: 'Europe/Berlin', until: '2026-03-30T21:59:59Z' }),
        '2026-03-29T01:30:00Z',
      ],
      [
        'every day at 2:30 3 times',
        daily('02:30', { timezone: 'Europe/Berlin', until: '2026-03-31T00:30:00Z', count: 3 }),
        '2026-03-29T01:30:00Z',
      ],
    ],
  },
  {
    // Issue 46, family 5: windows across midnight. The small hours belong to the evening before.
    name: 'issue 46, family 5: windows across midnight',
    now: WED,
    rows: [
      ['every hour between 9pm and 2am', hourly(1, '21:00', '02:00'), '2026-03-04T21:00:00Z'],
      ['every 3 hours between 8pm and 6am', hourly(3, '20:00', '06:00'), '2026-03-04T20:00:00Z'],
      ['every 3 hours starting at 8pm and ending at 6am', hourly(3, '20:00', '06:00'), '2026-03-04T20:00:00Z'],
      ['every hour from 18 to 6', hourly(1, '18:00', '06:00'), '2026-03-04T18:00:00Z'],
      ['every 30 minutes from 23:00 to 01:00', minutely(30, '23:00', '01:00'), '2026-03-04T23:00:00Z'],
      // Friday's window runs on into Saturday: Friday 6 March 22:00, then Saturday 00:00 ... 04:00.
      [
        'every 2 hours between 10pm and 4am on Fridays',
        hourly(2, '22:00', '04:00', { days_of_week: [5] }),
        '2026-03-06T22:00:00Z',
      ],
    ],
  },
  {
    // 00:30 on Thursday 5 March: inside the window that started on Wednesday evening.
    name: 'issue 46, family 5: in the small hours',
    now: '2026-03-05T00:30:00Z',
    rows: [
      ['every hour between 9pm and 2am', hourly(1, '21:00', '02:00'), '2026-03-05T01:00:00Z'],
      // Saturday 7 March 00:30 would be Friday's window; on a Thursday it is not.
      [
        'every 2 hours between 10pm and 4am on Fridays',
        hourly(2, '22:00', '04:00', { days_of_week: [5] }),
        '2026-03-06T22:00:00Z',
      ],
    ],
  },
  {
    // Berlin, night of Saturday 28 to Sunday 29 March 2026: 02:00 CET jumps to 03:00 CEST. After
    // 01:00 CET (00:00Z) the next hour that exists is 03:00 CEST (01:00Z); 02:00 is in the gap and
    // runs moved past it, at the same instant, once.
    name: 'issue 46, family 5 across DST: Berlin springs forward on 2026-03-29',
    now: '2026-03-29T00:00:00Z',
    timezone: 'Europe/Berlin',
    rows: [
      ['every hour between 10pm and 4am', hourly(1, '22:00', '04:00', { timezone: 'Europe/Berlin' }), '2026-03-29T01:00:00Z'],
    ],
  },
];

export const accepted = groups.flatMap((g) =>
  g.rows.map(([phrase, info, next]) => ({ group: g.name, now: g.now, timezone: g.timezone, phrase, info, next })),
);

export interface Rejection {
  phrase: unknown;
  timezone?: string;
  /** Fragments the detail must contain, usually the offending text in quotes. */
  detail: string[];
}

export interface RejectionGroup {
  name: string;
  rows: Rejection[];
}

export const rejectedGroups: RejectionGroup[] = [
  {
    name: 'the original corpus',
    rows: [
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
      { phrase: 'every day at 9am UTC-13', detail: ['Unsupported time zone "UTC-13"', 'from UTC-12 to UTC+14'] },
      { phrase: 'every day at 9am GMT-14', detail: ['Unsupported time zone "GMT-14"', 'from UTC-12 to UTC+14'] },
      // 'at 9am' was refused here ("how often"): since issue 25 a time alone is daily (family 4 group).
      { phrase: 'Europe/Berlin', detail: ['"Europe/Berlin"', 'how often'] },
      { phrase: 'every evening', detail: ['"evening"'] },
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
      // Still refused; since issue 25 (family 5) the detail asks for the days instead of "Could not understand".
      { phrase: 'twice a week', detail: ['"twice a week"', 'which days'] },
      { phrase: 'every day except weekends', detail: ['"except"'] },
      { phrase: 'mondays 9', detail: ['"9"'] },
      { phrase: 'every 2 weeks and every 3 weeks', detail: ['"every 2 weeks"', '"every 3 weeks"'] },
      { phrase: 'quarter to 12am daily', detail: ['"quarter to 12am"'] },
      { phrase: '🙂 every day', detail: ['"🙂"'] },
      { phrase: 'it may run daily', detail: ['"it may"'] },
      { phrase: 'every Friday evening', detail: ['"evening"'] },
      { phrase: 'every day at 9am GMT+15', detail: ['"GMT+15"'] },
      // 'every Monday starting 30 November 2026' was refused here ("needs an interval"): since issue 25
      // (family 9) a start holds back an interval-1 schedule's first run; see the family 9 group.
      {
        phrase: 'every 2 weeks on Monday starting Tuesday 30 November 2026',
        detail: ['"starting Tuesday 30 November 2026"', 'is a Monday, not a Tuesday'],
      },
      { phrase: 'every 2 weeks starting 31 November 2026', detail: ['"starting 31 November 2026" is not a valid date'] },
      { phrase: 'every 2 weeks starting soon', detail: ['Could not read the date after "starting"'] },
      { phrase: 'every 2 weeks starting 30 November', detail: ['Could not read the date after "starting"'] },
    ],
  },
  // Issue 9, family 10: one-offs are refused, never turned into a recurrence. Since issue 46 a
  // day or a date is a one-off run ("once", issue 46 family 4); these still are not.
  {
    name: 'family 10',
    rows: [
      ...[
        ['this April', '"this" (in "this April")'],
        ['next month', '"next month"'],
        ['next Monday to Friday', '"next" (in "next Monday")'],
      ].map(([phrase, quoted]) => ({
        phrase,
        detail: [quoted as string, 'one-off', 'this describes one date; say "every ..." for a recurrence'],
      })),
    ],
  },
  // Issue 9, family 8: times in more forms, and what still is not one.
  {
    name: 'family 8',
    rows: [
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
    ],
  },
  // Issue 9, family 9: typos two edits away, too short, ambiguous, or real English words.
  {
    name: 'family 9',
    rows: [
      { phrase: 'every munday', detail: ['"munday" could be Sunday or Monday'] },
      { phrase: 'every tursday', detail: ['"tursday" could be Tuesday or Thursday'] },
      { phrase: 'Thuesdays at 9', detail: ['"Thuesdays" could be Tuesday or Thursday'] },
      { phrase: 'every satrdy', detail: ['Could not understand "every satrdy"'] },
      { phrase: 'every juen 5', detail: ['"every juen 5"'] },
      { phrase: 'every day in marsh', detail: ['"in marsh"'] },
      { phrase: 'every sundry', detail: ['"every sundry"'] },
      { phrase: 'every match day', detail: ['"every match"'] },
    ],
  },
  // Issue 9, family 6: ordinal weekdays that are no week of a month, or clash with the rest.
  {
    name: 'family 6',
    rows: [
      { phrase: 'every 6th Monday', detail: ['"6th Monday" is not a week of the month'] },
      { phrase: 'every 4th Monday every week', detail: ['"every week"', '"4th Monday"', 'contradict'] },
      { phrase: 'every second Monday every 3 weeks', detail: ['"every 3 weeks"', '"second Monday"', 'contradict'] },
      { phrase: 'every 4th Monday on the 15th', detail: ['"4th Monday"', '"15th"', 'contradict'] },
      { phrase: 'every 4th weekday', detail: ['"every 4th weekday" is not clear', '"the 4th weekday of every month"'] },
      { phrase: 'every 3rd Monday every year', detail: ['Say which month "3rd Monday" is in'] },
      { phrase: 'every fourth Monday and second Tuesday', detail: ['"fourth Monday"', '"second Tuesday"'] },
    ],
  },
  // Issue 9, family 2: day numbers that are no day of a month, or clash with the rest.
  {
    name: 'family 2',
    rows: [
      { phrase: 'day 32 of every month', detail: ['"32" is not a day of the month'] },
      { phrase: 'day 0 of every month', detail: ['"0" is not a day of the month'] },
      { phrase: 'every day 5', detail: ['Could not understand "5"'] },
      { phrase: 'days 5 and 20 of every week', detail: ['"every week"', 'contradict'] },
      { phrase: 'days 1 and Monday', detail: ['"Monday"', '"1"', 'contradict'] },
      { phrase: 'day 31 of April every year', detail: ['"April 31" is not a valid date'] },
      { phrase: 'on days 5 and 20 of January and July', detail: ['Several days in several months'] },
    ],
  },
  // Issue 9, family 5: exclusions with nothing to take from, and nth business days.
  {
    name: 'family 5',
    rows: [
      { phrase: 'every weekday except Sunday', detail: ['"weekday"', '"except Sunday"', 'contradict'] },
      { phrase: 'every other day except Sunday', detail: ['"except Sunday" needs days', '"every other day"'] },
      { phrase: 'every month except Monday', detail: ['"except Monday" needs days', '"every month"'] },
      { phrase: 'except Sunday', detail: ['"except Sunday" needs days'] },
      { phrase: 'Mondays except Mondays', detail: ['"Mondays except Mondays" leaves no day to run'] },
      { phrase: 'every day except holidays', detail: ['Could not understand "except holidays"'] },
      { phrase: 'weekdays except weekdays', detail: ['"except" before "weekdays" is not supported'] },
    ],
  },
  // Issue 9, family 7: zones that are not exact, ambiguous or unknown.
  {
    name: 'family 7',
    rows: [
      { phrase: 'every day at 9am UTC+5:30', detail: ['"UTC+5:30"', 'whole hours only'] },
      { phrase: 'every day at 9am GMT+5:45', detail: ['"GMT+5:45"', 'whole hours only'] },
      { phrase: 'every day at 9am Australia time', detail: ['"Australia time" is ambiguous', 'several time zones'] },
      { phrase: 'every day at 9am US time', detail: ['"US time" is ambiguous'] },
      { phrase: 'every day at 9am Spain time', detail: ['"Spain time" is ambiguous'] },
      { phrase: 'every day at 9am Blorp time', detail: ['Could not understand "Blorp"'] },
      { phrase: 'every day at 9 Paris time Europe/Berlin', detail: ['Conflicting time zones', '"Paris time"'] },
      { phrase: 'every day at 9 Paris time PST', detail: ['Conflicting time zones', '"Paris time"', '"PST"'] },
    ],
  },
  // Issue 9, family 3 (part): cron wording that schedule_info cannot hold, or that is not a schedule.
  {
    name: 'family 3',
    rows: [
      { phrase: 'At 09:00 AM, January through March', detail: ['Say which day of "January March"'] },
      { phrase: 'days 7-1', detail: ['"7-1" is not a range of days of the month'] },
      // Cron ORs day-of-month and day-of-week; schedule_info ANDs them: refused, not misread.
      { phrase: 'At 00:00 on day-of-month 1 and on Monday', detail: ['"Monday"', '"1"', 'contradict'] },
      { phrase: 'At 09:00 AM, on day 32 of the month', detail: ['"32" is not a day of the month'] },
    ],
  },
  // Issue 9, family 4: cron and rate expressions schedule_info cannot hold.
  {
    name: 'family 4',
    rows: [
      { phrase: '30 18 4 */2 *', detail: ['month field "*/2"'] },
      { phrase: '0 9 1 * 1', detail: ['"0 9 1 * 1"', 'either the day of the month or the weekday'] },
      { phrase: 'cron(0 9 1 * ? 2027)', detail: ['the year field must be "*"'] },
      { phrase: '9 30 * * *', detail: ['out of range'] },
      { phrase: '0 9 15W * *', detail: ['day-of-month field "15W"'] },
    ],
  },
  // Issue 9, family 1: steps that do not divide the day, finer than a minute, or that do not fit.
  {
    name: 'family 1',
    rows: [
      { phrase: 'every 5 hours', detail: ['"every 5 hours" does not divide the day', 'between 8am and 8pm'] },
      { phrase: 'every 30 seconds', detail: ['more often than once a minute', '"every 30 seconds"'] },
      { phrase: 'every second', detail: ['more often than once a minute'] },
      { phrase: 'every 24 hours', detail: ['"every 24 hours" is not a supported interval', 'every day at 9am'] },
      { phrase: 'every 0 hours', detail: ['"every 0 hours" is not a supported interval'] },
      { phrase: 'every hour at 9am', detail: ['"9am"', 'does not fit "every hour"'] },
      { phrase: 'every hour in the morning', detail: ['"every hour" in "morning" is not supported'] },
      { phrase: 'every hour from 9am', detail: ['both ends of "from 9am"'] },
      { phrase: 'every 8 hours between 9am and 4pm', detail: ['runs only once a day'] },
      { phrase: 'hourly at :75', detail: ['":75" is not a minute of the hour'] },
      { phrase: 'every 20 minutes at :05', detail: ['"at :05"', 'does not fit "every 20 minutes"'] },
      { phrase: 'every hour every week', detail: ['"every week"', '"every hour"', 'contradict'] },
      { phrase: 'every hour every 2 days', detail: ['"every 2 days"', '"every hour"', 'contradict'] },
      { phrase: 'every 2 hours and every 3 hours', detail: ['"every 2 hours"', '"every 3 hours"', 'contradict'] },
      { phrase: 'hourly on April 9th', detail: ['one-off', '"April 9th"'] },
      {
        phrase: 'every 2 hours starting 30 November 2026',
        detail: ['"starting 30 November 2026"', 'not supported with "every 2 hours"'],
      },
      { phrase: 'twice an hour', detail: ['Could not understand "twice"'] },
      { phrase: 'every 1.5 hours', detail: ['"1.5"'] },
      { phrase: 'rate(5 hours)', detail: ['"rate(5 hours)" does not divide the day', '"every 5 hours between 8am and 8pm"'] },
      { phrase: 'rate(30 seconds)', detail: ['more often than once a minute'] },
      { phrase: '*/7 * * * *', detail: ['"*/7 * * * *"', 'do not keep one pace'] },
      { phrase: '*/15 */2 * * *', detail: ['steps in both the minute and the hour fields'] },
      { phrase: '0-30/15 * * * *', detail: ['do not keep one pace'] },
    ],
  },
  // Issue 25, family 2: an end or a number of runs is no open-ended tail: schedule_info has no end.
  {
    name: 'issue 25, family 2',
    rows: [
      { phrase: 'every Monday until December', detail: ['An end date ("until December")'] },
      { phrase: 'daily at 9am until the end of the year', detail: ['An end date ("until the end of the year")'] },
      { phrase: 'every weekday till next Friday', detail: ['An end date ("till next Friday")'] },
      { phrase: 'every Friday until tomorrow', detail: ['An end date ("until tomorrow")'] },
      // RFC 5545's examples with a COUNT or an UNTIL.
      { phrase: 'Weekly until December 24, 1997', detail: ['ends ("until December 24, 1997") before its first run'] },
      { phrase: 'indefinitely', detail: ['Could not tell how often to run "indefinitely"'] },
      { phrase: 'every blorpday forever', detail: ['Could not understand "every blorpday"'] },
      // "including weekends" adds nothing only to "every day": beside days named it says too much.
      { phrase: 'weekdays including weekends', detail: ['Could not understand "including"'] },
    ],
  },
  // Issue 25, family 4: a keyword does not make an unknown, ambiguous or second zone acceptable.
  {
    name: 'issue 25, family 4',
    rows: [
      { phrase: 'every day at 9 tz=Mars/Olympus', detail: ['Unknown time zone "Mars/Olympus"'] },
      { phrase: 'daily TZ=IST', detail: ['Ambiguous time zone "IST"'] },
      { phrase: 'every day at 9 timezone blorp', detail: ['Could not understand "timezone blorp"'] },
      {
        phrase: 'daily tz Europe/Paris TZ=America/Denver',
        detail: ['Conflicting time zones', '"Europe/Paris"', '"America/Denver"'],
      },
      { phrase: 'CRON_TZ=Mars/Olympus 0 9 * * *', detail: ['Unknown time zone "Mars/Olympus"'] },
      { phrase: 'every day at 9 timezone UTC+5:30', detail: ['"UTC+5:30"', 'whole hours only'] },
      { phrase: 'daily at 9 Blorp timezone', detail: ['Could not understand "Blorp timezone"'] },
      { phrase: 'daily at 9 Australia timezone', detail: ['"Australia timezone" is ambiguous'] },
    ],
  },
  // Issue 25: a typo correction never changes the first letter, so a made-up word is no weekday.
  {
    name: 'issue 25: typos keep their first letter',
    rows: [
      { phrase: 'every Funday', detail: ['Could not understand "every Funday"'] },
      { phrase: 'every Bunday at 9', detail: ['Could not understand "every Bunday"'] },
      { phrase: 'every Wuesday', detail: ['Could not understand "every Wuesday"'] },
      { phrase: 'every Sundae', detail: ['Could not understand "every Sundae"'] },
    ],
  },
  // Issue 25, family 1: numbers with no month beside them, or that are no day of a month.
  {
    name: 'issue 25, family 1',
    rows: [
      { phrase: '3, 10, 17', detail: ['Could not understand "3, 10, 17"'] },
      { phrase: '3,10,17 of each week', detail: ['Could not understand "3,10,17"'] },
      { phrase: '1, 15 of every 2 weeks', detail: ['Could not understand "1, 15"'] },
      { phrase: '0, 15 of each month', detail: ['"0" is not a day of the month'] },
      { phrase: '5, 32 of each month', detail: ['"32" is not a day of the month'] },
      { phrase: '5, 20 of each month and every Monday', detail: ['"Monday"', '"5 20"', 'contradict'] },
    ],
  },
  // Issue 25, family 3: "every day of the week" beside what no set of weekdays can be.
  {
    name: 'issue 25, family 3',
    rows: [
      { phrase: 'every day of the week on the 15th', detail: ['"every day of the week"', '"15th"', 'contradict'] },
      { phrase: 'every day of the week except weekends', detail: ['"except" before "weekends" is not supported'] },
      { phrase: 'every day of the fortnight', detail: ['"every day"', '"fortnight"', 'contradict'] },
      { phrase: 'every day of the week every 2 weeks', detail: ['"every day of the week"', '"every 2 weeks"', 'contradict'] },
      { phrase: '7 days a month', detail: ['Could not understand "7"'] },
    ],
  },
  // Issue 25, family 6: minutes that are no minute of the hour, or do not fit the rest.
  {
    name: 'issue 25, family 6',
    rows: [
      { phrase: 'every hour at half to', detail: ['"half to" is not a minute of the hour'] },
      { phrase: 'every hour at 9', detail: ['"9"', 'does not fit "every hour"'] },
      { phrase: 'every hour at 75', detail: ['"75" is not a minute of the hour'] },
      {
        phrase: 'every 2 hours at quarter to between 9am and 5pm',
        detail: ['"at quarter to" with "between 9am and 5pm" is not supported', '"every 2 hours at :45 between 9am and 5pm"'],
      },
      { phrase: 'every 20 minutes at quarter to', detail: ['"at quarter to"', 'does not fit "every 20 minutes"'] },
      { phrase: 'every hour at quarter past and quarter to', detail: ['"at quarter past"', '"quarter to"', 'contradict'] },
      { phrase: 'at quarter to', detail: ['Could not understand "to"'] },
    ],
  },
  // Issue 25, family 10: windows that run backwards, fit one run, are half said, or come twice.
  {
    name: 'issue 25, family 10',
    rows: [
      { phrase: 'every hour starting at 9', detail: ['Please give both ends of "starting at 9"'] },
      { phrase: 'every 8 hours starting at 9 and finishing at 16', detail: ['runs only once a day'] },
      { phrase: 'every hour from 9pm in the morning to noon', detail: ['"9pm in the morning"', '"morning"', 'contradict'] },
      {
        phrase: 'starting at 9 and finishing at 17',
        detail: ['"finishing at 17" closes a window', 'every hour from 9am to 5pm'],
      },
      {
        phrase: 'every 2 hours starting at 9 and finishing at 17 and from 18 to 20',
        detail: ['"starting at 9 and finishing at 17"', '"from 18 to 20"', 'contradict'],
      },
    ],
  },
  // Issue 25, family 5: a number of runs that does not match the days named, or names none.
  {
    name: 'issue 25, family 5',
    rows: [
      { phrase: 'twice a month', detail: ['Please say which days "twice a month" runs on'] },
      // "semi-annually" alone might be every six months from any day: the days are asked for.
      { phrase: 'semi-annually', detail: ['Please say which days "semi-annually" runs on'] },
      { phrase: 'every hour from 12 to 12', detail: ['runs only once a day'] },
      { phrase: 'twice a month on the 3rd', detail: ['"twice a month" does not match the days named (1 day a month)'] },
      { phrase: 'three times a week on Mondays and Fridays', detail: ['"three times a week" does not match the days named'] },
      { phrase: 'twice a day', detail: ['Please say the times of day "twice a day" runs at', '"twice a day at 9am and 5pm"'] },
      { phrase: 'twice a week every hour', detail: ['"twice a week"', '"every hour"', 'contradict'] },
      { phrase: 'twice a month on Mondays', detail: ['Say which "Mondays" of the month'] },
      { phrase: 'every day on the 15th of every week', detail: ['"every day"', '"every week"', 'contradict'] },
    ],
  },
  // Issue 25, family 8: weeks that are no week of the month, or with no weekday to run.
  {
    name: 'issue 25, family 8',
    rows: [
      { phrase: 'first week of every month', detail: ['Say which day of "first week"'] },
      { phrase: '6th week of the month on Monday', detail: ['"6th week" is not a week of the month'] },
      { phrase: 'the 6 Fri of every month', detail: ['"6 Fri" is not a week of the month'] },
      { phrase: 'every day in the first week of the month', detail: ['Say which day of "first week"'] },
      { phrase: 'in the first week of each month on Mondays and the 15th', detail: ['"15th"', 'contradict'] },
      { phrase: 'the first week of the month on Monday and third Wednesday', detail: ['Different weekdays in different weeks'] },
    ],
  },
  // Issue 25, family 7: a date left out, an interval of months, or a month that was not there.
  {
    name: 'issue 25, family 7',
    rows: [
      { phrase: 'every Monday except August 15', detail: ['"except August 15" leaves out a date', 'whole months only'] },
      {
        phrase: 'every 2 months on the 1st except August',
        detail: ['"except August" with an interval of months is not supported'],
      },
      { phrase: 'every day from March to May except August', detail: ['"except August"', 'contradict'] },
      { phrase: 'every day except in January through December', detail: ['leaves no month to run'] },
      { phrase: 'every year on March 3 except August', detail: ['"March"', '"except August"', 'contradict'] },
      { phrase: 'except August', detail: ['Could not tell how often to run "except August"'] },
    ],
  },
  // Issue 25, family 9: a start with nothing to start, with every N hours, or said twice.
  {
    name: 'issue 25, family 9',
    rows: [
      { phrase: 'starting next Tuesday', detail: ['Could not tell how often to run "starting next Tuesday"'] },
      { phrase: 'every hour starting tomorrow', detail: ['"starting tomorrow"', 'not supported with "every hour"'] },
      { phrase: 'every day starting yesterday', detail: ['Could not read the date after "starting"'] },
      { phrase: 'every 2 weeks from Monday', detail: ['Could not understand "from"'] },
      {
        phrase: 'every 2 weeks starting next Tuesday starting 30 November 2026',
        detail: ['Only one start date', '"starting next Tuesday"', '"starting 30 November 2026"'],
      },
    ],
  },
  // Issue 46, family 1: several times a day that are not clear, or do not fit.
  {
    name: 'issue 46, family 1',
    rows: [
      { phrase: 'at 9 and 5', detail: ['"at 9 and 5" is not clear', '"at 9am and 5pm"', '"at 09:00 and 17:00"'] },
      { phrase: 'twice a day at 9am', detail: ['"twice a day" does not match the times named ("9am")'] },
      { phrase: 'three times a day at 9am and 5pm', detail: ['"three times a day" does not match the times named'] },
      { phrase: 'every hour at 9am and 5pm', detail: ['A time of day ("9am") does not fit "every hour"'] },
      { phrase: '*/15 9,17 * * *', detail: ['"*/15 9,17 * * *"', 'a list with a step'] },
      { phrase: 'at 9am (10am) every day', detail: ['"9am" and "10am" contradict each other'] },
      { phrase: 'from 9am to 5pm every day', detail: ['"to 5pm" closes a window', 'every hour from 9am to 5pm'] },
    ],
  },
  // Issue 46, family 2: zones, formats and rates that stay refused.
  {
    name: 'issue 46, family 2',
    rows: [
      { phrase: 'every day at 9am EST/PST', detail: ['Conflicting time zones "EST" and "PST"'] },
      { phrase: 'every day at 9 in Easter', detail: ['Could not understand "in Easter"'] },
      { phrase: 'every day at 9 in Australia', detail: ['Could not understand "in Australia"'] },
      { phrase: 'every day 18h', detail: ['Could not understand "18h"'] },
      { phrase: 'rate(1 week)', detail: ['"rate(1 week)"', 'rate() takes minutes, hours or days'] },
      { phrase: 'rate(400 days)', detail: ['"rate(400 days)"', 'days: 1 to 365'] },
      { phrase: 'every 5 hours', detail: ['"every 5 hours" does not divide the day', '1, 2, 3, 4, 6, 8 or 12 hours'] },
      { phrase: 'every 7 minutes at 9am', detail: ['A time of day ("9am") does not fit "every 7 minutes"'] },
    ],
  },
  // Issue 46, family 3: working days that are not clear, or that some months lack.
  {
    name: 'issue 46, family 3',
    rows: [
      { phrase: 'every second business day', detail: ['"every second business day" is not clear', 'of every month'] },
      { phrase: 'the 21st business day of the month', detail: ['"21st business day" is not a weekday every month has'] },
      { phrase: 'the 9th weekend day of the month', detail: ['"9th weekend day" is not a weekend day every month has'] },
      { phrase: 'first business day and first Monday of the month', detail: ['"first business day" and "first Monday"'] },
      { phrase: 'first business day every week', detail: ['contradict'] },
    ],
  },
  // Issue 46, family 4: one-off runs already past, ends before the first run, mixed words.
  {
    name: 'issue 46, family 4',
    rows: [
      { phrase: 'today at 9am', detail: ['"today" (2026-03-04 at 09:00 UTC) is already past'] },
      { phrase: 'on 3 March 2025 at 9', detail: ['is already past'] },
      { phrase: 'every day until 31 December 2025', detail: ['ends ("until 31 December 2025") before its first run'] },
      { phrase: 'tomorrow at 9 every day', detail: ['"tomorrow" is one run and "every day" repeats'] },
      {
        phrase: 'every Monday until next Friday',
        detail: [
          'An end date ("until next Friday") is not understood',
          'not as a day counted from today',
          'until 31 December 2026',
        ],
      },
      { phrase: 'every day 2000 times', detail: ['"2000 times" is not a supported number (1 to 1000)'] },
      { phrase: 'every day until 31 December 2026 until 1 January 2027', detail: ['Only one end of each kind'] },
      { phrase: 'on Tuesday 3 March 2027', detail: ['3 March 2027 is a Wednesday, not a Tuesday'] },
      { phrase: 'on 30 February 2027', detail: ['"30 February 2027" is not a valid date'] },
      { phrase: 'every day until February 30', detail: ['"February 30" is not a valid date'] },
    ],
  },
  // Issue 46: phrases still refused, with why and what to write instead.
  {
    name: 'issue 46, refusals that say why',
    rows: [
      {
        phrase: 'tonight at 11',
        detail: ['"tonight" is not read: it could mean one run or every night', '"today at 11pm"', '"every day at 11pm"'],
      },
      { phrase: 'tonight', detail: ['"today at 9pm"', '"every day at 9pm"'] },
      { phrase: 'tonight at 23:30', detail: ['"today at 23:30"'] },
      { phrase: 'yesterday at 9', detail: ['"yesterday" is already past', '"tomorrow at 9am"'] },
      {
        phrase: 'every day at 9 till Friday',
        detail: ['("till Friday") is not understood', 'not as a day counted from today', 'until 31 December 2026'],
      },
      {
        phrase: '0 22-2 * * *',
        detail: [
          'the hour range "22-2" goes backwards across midnight',
          '"0 22-23,0-2 * * *"',
          '"every hour between 22:00 and 02:00"',
        ],
      },
      { phrase: '30 21-3 * * 1-5', detail: ['write "30 21-23,0-3 * * 1-5"'] },
      { phrase: 'cron(0 22-2 * * ? *)', detail: ['"cron(0 22-23,0-2 * * ? *)"'] },
      { phrase: '*/15 22-2 * * *', detail: ['"every 15 minutes between 22:00 and 02:45"'] },
    ],
  },
  // Issue 46, family 5: windows across midnight that fit one run.
  {
    name: 'issue 46, family 5',
    rows: [
      {
        phrase: 'every 8 hours between 10pm and 2am',
        detail: ['"every 8 hours" "between 10pm and 2am" runs only once a day (at 22:00)'],
      },
      { phrase: 'every hour from 23:30 to 00:15', detail: ['runs only once a day (at 23:30)'] },
    ],
  },
];

export const rejected = rejectedGroups.flatMap((g) => g.rows);
