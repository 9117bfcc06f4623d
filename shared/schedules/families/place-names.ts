/**
 * Issue 46, family 2, zones named by the place: "every day at 9am in Berlin", "at 8:30 (New
 * York)", "weekdays at 9 in Japan". A city Intl lists (its zone's last part: "Berlin",
 * "New York", "Sao Paulo") or a one-zone country, in up to three words, after "in" or in
 * brackets; a "time" / "timezone" / "time zone" right after it is part of it ("in Paris time").
 * After the abbreviations, IANA names and "<city> time" (family 7), which claim their words first.
 */
import { namedPlaceZone } from '../timezones.js';
import { isWord, spanText, type Token } from '../tokens.js';
import type { PhraseFamily, View } from './family.js';

/** IANA places that are English words a schedule may use: never a zone after "in". */
const NOT_PLACES = new Set(['easter', 'wake', 'midway', 'troll', 'casey', 'davis', 'palmer', 'mawson', 'vostok', 'macquarie']);

/** Up to `max` unclaimed words from i that are true neighbours in the text (nothing claimed between). */
function wordsFrom(view: View, i: number, max: number): Token[] {
  const words: Token[] = [];
  let k = view.all.indexOf(view.free[i] as Token);
  while (words.length < max) {
    const t = view.all[k];
    if (!t || t.used || t.kind !== 'word') break;
    words.push(t);
    k++;
  }
  return words;
}

/** The longest reading of the words as a place, first ones first: its zone and its words. */
function placeAt(words: readonly Token[]): { zone: string; words: Token[] } | null {
  if (words[0] && NOT_PLACES.has(words[0].lower)) return null;
  for (let n = words.length; n >= 1; n--) {
    const place = words.slice(0, n);
    const zone = namedPlaceZone(place);
    if (zone) return { zone, words: place };
  }
  return null;
}

/** "time", "timezone", "time zone", "zone" right after the place. */
function zoneWords(view: View, after: Token): Token[] {
  const k = view.all.indexOf(after);
  const [a, b] = [view.all[k + 1], view.all[k + 2]];
  if (a?.used) return [];
  if (isWord(a, 'time') && isWord(b, 'zone') && !b.used) return [a, b];
  return isWord(a, 'time', 'timezone', 'zone') ? [a] : [];
}

/** Whether the text just before `at` (spaces aside) is an opening bracket: no slice of the text per token. */
function bracketBefore(description: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && /\s/.test(description.charAt(k))) k--;
  return description.charAt(k) === '(';
}

function bracketAfter(description: string, at: number): boolean {
  let k = at;
  while (k < description.length && /\s/.test(description.charAt(k))) k++;
  return description.charAt(k) === ')';
}

const inBrackets = (description: string, first: Token, last: Token): boolean =>
  bracketBefore(description, first.start) && bracketAfter(description, last.end);

export const placeNames: PhraseFamily = {
  name: 'places named for a zone',
  stage: 'place-zone',
  read(view, i) {
    const t = view.free[i];
    if (t?.kind !== 'word') return null;
    const lead = isWord(t, 'in') ? 1 : 0;
    if (lead === 0 && !bracketBefore(view.description, t.start)) return null;
    const start = view.free[i + lead];
    if (!start || (lead === 1 && view.all[view.all.indexOf(t) + 1] !== start)) return null;
    const place = placeAt(wordsFrom(view, i + lead, 3));
    if (!place) return null;
    const last = place.words[place.words.length - 1] as Token;
    if (lead === 0 && !inBrackets(view.description, start, last)) return null;
    const tail = zoneWords(view, last);
    const tokens = [...(lead ? [t] : []), ...place.words, ...tail];
    const text = spanText(view.description, tokens);
    return { length: lead + place.words.length, tokens, facts: [{ kind: 'zone', zone: { zone: place.zone, text } }] };
  },
};
