import { deicticDates } from '../../../../shared/schedules/families/one-offs.js';
import { readWith } from './read.js';

describe('family 10: one-off dates', () => {
  test.each([
    ['tomorrow at 9', '"tomorrow" is a one-off date'],
    ['this Tuesday at 4pm', '"this" (in "this Tuesday")'],
    ['next Friday', '"next" (in "next Friday")'],
    ['upcoming April', '"upcoming" (in "upcoming April")'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(deicticDates, phrase)).toThrow(detail);
  });

  test.each(['run this Mondays and Fridays', 'run this Monday to Friday', 'last Friday of the month'])(
    'claims nothing in %s',
    (phrase) => {
      expect(readWith(deicticDates, phrase).claimed).toEqual([]);
    },
  );
});
