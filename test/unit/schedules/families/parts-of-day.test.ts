import { partsOfDay } from '../../../../shared/schedules/families/parts-of-day.js';
import { readWith } from './read.js';

describe('parts of the day', () => {
  test.each([
    ['every morning', 'morning', true, ['every', 'morning']],
    ['at 8 in the evening', 'evening', false, ['evening']],
    ['nightly at 2', 'night', true, ['nightly']],
  ])('%s', (phrase, period, daily, claimed) => {
    const read = readWith(partsOfDay, phrase);
    expect(read.facts.period).toMatchObject({ period, daily });
    expect(read.claimed).toEqual(claimed);
  });

  test('two parts of the day contradict each other', () => {
    expect(() => readWith(partsOfDay, 'in the morning and in the evening')).toThrow('"morning" and "evening" contradict');
  });
});
