import { deicticDates, writtenDates } from '../../../../shared/schedules/families/one-offs.js';
import { readWith } from './read.js';

describe('family 10 and issue 46 family 4: one-off dates', () => {
  test.each([
    ['tomorrow at 9', { kind: 'day', offset: 1 }, ['tomorrow']],
    ['today at 5pm', { kind: 'day', offset: 0 }, ['today']],
    ['this Tuesday at 4pm', { kind: 'weekday', day: 2, after: false }, ['this', 'Tuesday']],
    ['next Friday', { kind: 'weekday', day: 5, after: true }, ['next', 'Friday']],
  ])('%s is one run, relative to today', (phrase, relative, claimed) => {
    const read = readWith(deicticDates, phrase);
    expect(read.facts.once).toEqual(expect.objectContaining({ date: null, relative }));
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['on 3 March 2027 at 14:00', { year: 2027, month: 3, day: 3 }, ['3', 'March', '2027']],
    ['once on Wednesday 3 March 2027', { year: 2027, month: 3, day: 3 }, ['Wednesday', '3', 'March', '2027']],
    ['2027-03-03 at 14:00', { year: 2027, month: 3, day: 3 }, ['2027', '-', '03', '-', '03']],
  ])('%s is one run on a written date', (phrase, date, claimed) => {
    const read = readWith(writtenDates, phrase);
    expect(read.facts.once).toEqual(expect.objectContaining({ date, relative: null }));
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['tonight at 11', 'For one run say "today at 11pm"; for every night, "every day at 11pm"'],
    ['yesterday', '"yesterday" is already past'],
    ['upcoming April', '"upcoming" (in "upcoming April")'],
    ['next Monday to Friday', '"next" (in "next Monday")'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(deicticDates, phrase)).toThrow(detail);
  });

  test("a weekday that is not the date's is refused", () => {
    expect(() => readWith(writtenDates, 'on Tuesday 3 March 2027')).toThrow('3 March 2027 is a Wednesday, not a Tuesday');
  });

  test.each(['run this Mondays and Fridays', 'run this Monday to Friday', 'last Friday of the month'])(
    'claims nothing in %s',
    (phrase) => {
      expect(readWith(deicticDates, phrase).claimed).toEqual([]);
    },
  );
});
