import { resolveZone, ScheduleError, ZONE_ABBREVIATIONS } from '../../../shared/schedules/index.js';

describe('resolveZone', () => {
  test.each([
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['GMT', 'UTC'],
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['  Europe/Berlin ', 'Europe/Berlin'],
    // ICU would answer Asia/Calcutta; the name as typed is kept.
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['PST', 'America/Los_Angeles'],
    ['EST', 'America/New_York'],
    ['edt', 'America/New_York'],
    ['CET', 'Europe/Berlin'],
    ['BST', 'Europe/London'],
    ['AEST', 'Australia/Sydney'],
  ])('%s -> %s', (input, expected) => {
    expect(resolveZone(input)).toBe(expected);
  });

  test.each(['Mars/Olympus', '', '+02:00', 'Berlin', 'IST', 'AST', 'Europe/Berlin; DROP TABLE'])('%s is rejected', (input) => {
    expect(() => resolveZone(input)).toThrow(ScheduleError);
  });

  // Names of Object.prototype's properties are no abbreviations: the lookup must not find them.
  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('%s is an unknown time zone', (input) => {
    expect(() => resolveZone(input)).toThrow(`Unknown time zone "${input}"`);
  });

  test('every abbreviation maps to a zone Intl knows', () => {
    for (const zone of Object.values(ZONE_ABBREVIATIONS)) {
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone })).not.toThrow();
    }
  });
});
