import { placeNames } from '../../../../shared/schedules/families/place-names.js';
import { readWith } from './read.js';

describe('issue 46, family 2: zones named by the place', () => {
  test.each([
    ['every day at 9am in Berlin', 'Europe/Berlin', ['in', 'Berlin']],
    ['at 9 in new york on weekdays', 'America/New_York', ['in', 'new', 'york']],
    ['at 9 in Sao Paulo', 'America/Sao_Paulo', ['in', 'Sao', 'Paulo']],
    ['weekdays at 9 in Japan', 'Asia/Tokyo', ['in', 'Japan']],
    ['every day at 9 in Paris time', 'Europe/Paris', ['in', 'Paris', 'time']],
    ['every day at 9 in the Paris time zone', null, []], // "the": family 4's keyword reads it
    ['at 8:30 (New York) daily', 'America/New_York', ['New', 'York']],
    ['at 8:30 (Berlin)', 'Europe/Berlin', ['Berlin']],
  ])('%s', (phrase, zone, claimed) => {
    const read = readWith(placeNames, phrase);
    expect(read.facts.zone?.zone ?? null).toBe(zone);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    'every day in March',
    'every day at 9 in the evening',
    'every day at 9 in Easter', // Pacific/Easter, but a word a schedule may use
    'every day at 9 Berlin', // neither "in" nor brackets: "Berlin time" is family 7's
    'every day at 9 (Berlin', // no closing bracket
    'every day at 9 in Australia', // several zones
    'every day at 9 in Blorpville',
  ])('%s: no zone', (phrase) => {
    const read = readWith(placeNames, phrase);
    expect(read.facts.zone).toBeNull();
    expect(read.claimed).toEqual([]);
  });
});
