import { placeTimes, zoneNames } from '../../../../shared/schedules/families/time-zones.js';
import { readWith } from './read.js';

describe('family 7: time zones people name', () => {
  test.each([
    ['9am Europe/Berlin', 'Europe/Berlin', ['Europe/Berlin']],
    ['9am CEST', 'Europe/Berlin', ['CEST']],
    ['9am UTC+2', 'Etc/GMT-2', ['UTC+2']],
    ['9am PT', 'America/Los_Angeles', ['PT']],
    // Issue 46: a zone's winter and summer abbreviations together.
    ['9am CET/CEST', 'Europe/Berlin', ['CET/CEST']],
    ['9am PST/PDT', 'America/Los_Angeles', ['PST/PDT']],
  ])('names: %s', (phrase, zone, claimed) => {
    const read = readWith(zoneNames, phrase);
    expect(read.facts.zone?.zone).toBe(zone);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['9am Paris time', 'Europe/Paris', ['Paris', 'time']],
    ['9am New York time', 'America/New_York', ['New', 'York', 'time']],
    ['9am Japan time', 'Asia/Tokyo', ['Japan', 'time']],
  ])('places: %s', (phrase, zone, claimed) => {
    const read = readWith(placeTimes, phrase);
    expect(read.facts.zone?.zone).toBe(zone);
    expect(read.claimed).toEqual(claimed);
  });

  test('abbreviations of two zones in one pair contradict each other (issue 46)', () => {
    expect(() => readWith(zoneNames, '9am EST/PST')).toThrow('Conflicting time zones "EST" and "PST"');
  });

  test('two zones contradict each other', () => {
    expect(() => readWith(zoneNames, '9am PST Europe/Berlin')).toThrow('Conflicting time zones "PST" and "Europe/Berlin"');
  });

  test('a country with several zones is refused', () => {
    expect(() => readWith(placeTimes, '9am US time')).toThrow('"US time" is ambiguous');
  });
});
