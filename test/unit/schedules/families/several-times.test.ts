import { readFamilies } from '../../../../shared/schedules/families/index.js';
import { severalTimes } from '../../../../shared/schedules/families/several-times.js';
import { timesOfDay } from '../../../../shared/schedules/families/times-of-day.js';
import { tokenize } from '../../../../shared/schedules/tokens.js';
import { readWith } from './read.js';

/** The two time families together, as the parser runs them. */
function readTimes(description: string) {
  const tokens = tokenize(description);
  const facts = readFamilies(tokens, description, [timesOfDay, severalTimes]);
  return { times: facts.times.map((t) => t.time), claimed: tokens.filter((t) => t.used).map((t) => t.text) };
}

const hh = (hour: number, minute = 0) => ({ hour, minute });

describe('issue 46, family 1: several times a day', () => {
  test.each([
    ['at 9, 13 and 17', [hh(9), hh(13), hh(17)], ['at', '9', '13', 'and', '17']],
    ['at 8 and 20 daily', [hh(8), hh(20)], ['at', '8', 'and', '20']],
    ['at nine and eleven', [hh(9), hh(11)], ['at', 'nine', 'and', 'eleven']],
  ])('reads the bare list %s', (phrase, times, claimed) => {
    const read = readWith(severalTimes, phrase);
    expect(read.facts.times.map((t) => t.time)).toEqual(times);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    'at 9 and 11 am', // am after the list: times-of-day reads "11 am"
    'at 3 and 5 March',
    'at 9',
    'at 9 past',
  ])('leaves %s to other readers', (phrase) => {
    expect(readWith(severalTimes, phrase).claimed).toEqual([]);
  });

  test.each([
    ['at 9am and 5pm', [hh(9), hh(17)]],
    ['every day at 8:00 and 20:00', [hh(8), hh(20)]],
    ['at noon and 5pm on weekdays', [hh(12), hh(17)]], // a pair is never a contradiction
    ['at 12am (midnight) and noon', [hh(0), hh(12)]], // "(midnight)" says 12am again
    ['at 9am and 9am', [hh(9)]],
  ])('with times of day: %s', (phrase, times) => {
    expect(readTimes(phrase).times).toEqual(times);
  });

  test.each([
    ['at 9 and 5', '"at 9 and 5" is not clear: a bare hour is 24-hour, so "5" would run before "9"'],
    ['at 14 and 13', '"at 00:00 and 13:00"'.replace('00:00', '14:00')],
    ['at 12am (noon)', '"12am" and "noon" contradict each other'],
    ['starting at 9 and finishing at 17', '"finishing at 17" closes a window of the day'],
    ['from 9am until 5pm', '"until 5pm" closes a window of the day'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readTimes(phrase)).toThrow(detail);
  });
});
