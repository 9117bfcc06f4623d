/**
 * Family 7, time zones people name: IANA names ("Europe/Berlin"), offsets ("UTC+2"),
 * abbreviations ("CET", "PT"), then "<city> time" / "<country> time". Two stages: the second
 * runs after the first, so "Eastern time" is the abbreviation and not a city.
 */
import { quote, ScheduleError } from '../errors.js';
import { placeBeforeTime, zoneOfToken } from '../timezones.js';
import { isWord, type Token } from '../tokens.js';
import { claim, type Fact, type PhraseFamily } from './family.js';

function describeTokens(tokens: readonly Token[]): string {
  return tokens.map((t) => t.text).join(' ');
}

/** Two different zones contradict each other; the same zone twice is fine. */
function settleZones(facts: readonly Fact[]): void {
  const zones = facts.flatMap((f) => (f.kind === 'zone' ? [f.zone] : []));
  const [found] = zones;
  const other = zones.find((z) => z.zone !== found?.zone);
  if (found && other) {
    throw new ScheduleError(`Conflicting time zones ${quote(found.text)} and ${quote(other.text)} in the schedule description`);
  }
}

export const zoneNames: PhraseFamily = {
  name: 'time zone names',
  stage: 'zone',
  read(view, i) {
    const token = view.free[i];
    const zone = token ? zoneOfToken(token) : null;
    if (!token || !zone) return null;
    return claim(view, i, 1, [{ kind: 'zone', zone: { zone, text: token.text } }]);
  },
  settle: settleZones,
};

/** "Paris time", "New York time", "Japan time": up to three words before "time". */
export const placeTimes: PhraseFamily = {
  name: 'city and country times',
  stage: 'place-zone',
  read(view, i) {
    const time = view.free[i];
    if (!isWord(time, 'time')) return null;
    // The words before "time" must be its true neighbours, unclaimed: placeBeforeTime checks.
    const place = placeBeforeTime(view.all, view.all.indexOf(time));
    if (!place) return null;
    return {
      length: 1,
      tokens: place.tokens,
      facts: [{ kind: 'zone', zone: { zone: place.zone, text: describeTokens(place.tokens) } }],
    };
  },
  settle: settleZones,
};
