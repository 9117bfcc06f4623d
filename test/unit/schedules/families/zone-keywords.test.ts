import { ScheduleError } from '../../../../shared/schedules/errors.js';
import { readFamilies } from '../../../../shared/schedules/families/index.js';
import { zoneNames } from '../../../../shared/schedules/families/time-zones.js';
import { prefixZone, zoneKeywords, zonePrefix } from '../../../../shared/schedules/families/zone-keywords.js';
import { tokenize } from '../../../../shared/schedules/tokens.js';
import { readWith } from './read.js';

describe('issue 25, family 4: zone keywords', () => {
  test.each([
    ['weekdays 6pm tz Europe/Paris', 'Europe/Paris', ['tz', 'Europe/Paris']],
    ['at 07:30 timezone Asia/Kolkata', 'Asia/Kolkata', ['timezone', 'Asia/Kolkata']],
    ['TZ=America/Denver daily at noon', 'America/Denver', ['TZ', '=', 'America/Denver']],
    ['daily, time zone: UTC', 'UTC', ['time', 'zone', 'UTC']],
    ['daily, time-zone EST', 'America/New_York', ['time', '-', 'zone', 'EST']],
    ['daily at 9 timezone Japan', 'Asia/Tokyo', ['timezone', 'Japan']],
    ['daily at 9 tz UTC+2', 'Etc/GMT-2', ['tz', 'UTC+2']],
    ['timezone is Europe/Paris, daily at 9', 'Europe/Paris', ['timezone', 'is', 'Europe/Paris']],
  ])('%s', (phrase, zone, claimed) => {
    const read = readWith(zoneKeywords, phrase);
    expect(read.facts.zone?.zone).toBe(zone);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['daily at 9 Europe/Paris timezone', ['Europe/Paris', 'timezone']],
    ['daily at 9 in the Eastern time zone', ['Eastern', 'time', 'zone']],
  ])('a keyword after a zone read before it is claimed alone: %s', (phrase, claimed) => {
    const tokens = tokenize(phrase);
    const facts = readFamilies(tokens, phrase, [zoneKeywords, zoneNames]);
    expect(tokens.filter((t) => t.used).map((t) => t.text)).toEqual(claimed);
    expect(facts.zone?.text).toBe(claimed[0]);
  });

  test.each([
    ['daily at 9am Paris timezone', 'Europe/Paris', ['Paris', 'timezone']],
    ['daily at 9 in the New York timezone', 'America/New_York', ['New', 'York', 'timezone']],
  ])('a city before the keyword is the zone: %s', (phrase, zone, claimed) => {
    const read = readWith(zoneKeywords, phrase);
    expect(read.facts.zone?.zone).toBe(zone);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['daily tz=Mars/Olympus', 'Unknown time zone "Mars/Olympus"'],
    ['daily timezone Mars/Olympus', 'Unknown time zone "Mars/Olympus"'],
    ['daily TZ=IST', 'Ambiguous time zone "IST"'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(zoneKeywords, phrase)).toThrow(ScheduleError);
    expect(() => readWith(zoneKeywords, phrase)).toThrow(detail);
  });

  test('"timezone blorp" without "=" claims nothing: the word is left for "not understood"', () => {
    expect(readWith(zoneKeywords, 'daily timezone blorp').claimed).toEqual([]);
  });

  test('zoneNames alone does not read the keyword', () => {
    expect(readWith(zoneNames, 'daily tz Europe/Paris').claimed).toEqual(['Europe/Paris']);
  });

  test.each([
    ['CRON_TZ=Europe/Paris 0 9 * * 1-5', { name: 'Europe/Paris', rest: '0 9 * * 1-5' }],
    ['TZ=America/Denver 30 7 * * *', { name: 'America/Denver', rest: '30 7 * * *' }],
    ['0 9 * * *', null],
  ])('zonePrefix(%s)', (line, expected) => {
    expect(zonePrefix(line)).toEqual(expected);
  });

  test.each([
    ['Europe/Paris', 'Europe/Paris'],
    ['UTC+2', 'Etc/GMT-2'],
    ['CET', 'Europe/Berlin'],
  ])('prefixZone(%s)', (name, zone) => {
    expect(prefixZone(name)).toBe(zone);
  });

  test('prefixZone refuses an unknown zone', () => {
    expect(() => prefixZone('Mars/Olympus')).toThrow('Unknown time zone "Mars/Olympus"');
  });
});
