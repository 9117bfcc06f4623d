/**
 * Issue 25, family 4, zone keywords: "tz Europe/Paris", "timezone Asia/Kolkata",
 * "TZ=America/Denver", "time zone: UTC", "in the Eastern time zone". The keyword before a zone
 * claims the zone with it (a word such as "Japan" or "Paris" is read as a zone there too); a
 * keyword after a zone the zone readers claimed ("Europe/Paris timezone", "Paris time zone") is
 * claimed alone, and one after a city or country claims it ("Paris timezone"). Cron lines may
 * carry crontab's "CRON_TZ=" / "TZ=" prefix: zonePrefix splits it.
 */
import { placeBeforeTime, placeZone, resolveZone, zoneOfToken } from '../timezones.js';
import { isWord, type Token, tokenize } from '../tokens.js';
import { claim, type PhraseFamily } from './family.js';

/** How many tokens the keyword at i takes: "tz", "timezone", "tzid", "time zone", "time-zone", "zone". */
function keywordLength(free: readonly Token[], i: number): number {
  const t = free[i];
  if (isWord(t, 'tz', 'timezone', 'tzid', 'zone')) return 1;
  if (isWord(t, 'time') && isWord(free[i + 1], 'zone')) return 2;
  if (isWord(t, 'time') && free[i + 1]?.kind === 'dash' && isWord(free[i + 2], 'zone')) return 3;
  return 0;
}

/** The zone a value after a keyword names: a zone token, an offset, an abbreviation, a country or city. */
function valueZone(value: Token): string | null {
  const zone = zoneOfToken(value);
  if (zone) return zone;
  if (value.kind !== 'word') return null;
  return placeZone([value]);
}

export const zoneKeywords: PhraseFamily = {
  name: 'zone keywords',
  stage: 'zone',
  read(view, i) {
    const { free, all } = view;
    const length = keywordLength(free, i);
    if (length === 0) return null;
    const keyword = free[i] as Token;
    // "Europe/Paris timezone", "Eastern time zone": the zone before was read already.
    const before = all[all.indexOf(keyword) - 1];
    if (before?.used && zoneOfToken(before)) return claim(view, i, length, []);
    // "Paris timezone", "in the Tokyo timezone": a city or country before the keyword.
    const place = before && !before.used ? placeBeforeTime(all, all.indexOf(keyword)) : null;
    if (place) {
      const tokens = [...place.tokens, ...free.slice(i + 1, i + length)];
      const text = tokens.map((t) => t.text).join(' ');
      return { length, tokens, facts: [{ kind: 'zone', zone: { zone: place.zone, text } }] };
    }
    const after = free[i + length];
    const sep = (after?.kind === 'sym' && after.text === '=') || isWord(after, 'is', 'of') ? 1 : 0;
    const value = free[i + length + sep];
    if (!value) return null;
    // "TZ=Mars/Olympus", "timezone Mars/Olympus": resolveZone says the zone is unknown.
    const sure = (sep === 1 && !isWord(after, 'of')) || value.kind === 'zone';
    const zone = valueZone(value) ?? (sure && keyword.lower !== 'zone' ? resolveZone(value.text) : null);
    if (zone) return claim(view, i, length + sep + 1, [{ kind: 'zone', zone: { zone, text: value.text } }]);
    return null;
  },
};

/** A trailing "zone" after "Paris time" (read in the place-zone stage): "in the Paris time zone". */
export const zoneWordAfterPlace: PhraseFamily = {
  name: 'zone word after a place',
  stage: 'place-zone',
  read(view, i) {
    const t = view.free[i];
    if (!isWord(t, 'zone', 'timezone')) return null;
    const before = view.all[view.all.indexOf(t) - 1];
    if (!before?.used || !(isWord(before, 'time') || zoneOfToken(before))) return null;
    return claim(view, i, 1, []);
  },
};

const ZONE_PREFIX = /^\s*(?:cron_tz|tz)\s*=\s*(\S+)\s+/i;

/** "CRON_TZ=Europe/Paris 0 9 * * *": the zone's name and the rest of the line, or null without the prefix. */
export function zonePrefix(description: string): { name: string; rest: string } | null {
  const m = ZONE_PREFIX.exec(description);
  if (!m?.[1]) return null;
  return { name: m[1], rest: description.slice(m[0].length) };
}

/** The zone a "CRON_TZ=" prefix names: an IANA name, an offset ("UTC+2") or an abbreviation. */
export function prefixZone(name: string): string {
  const [token, extra] = tokenize(name);
  return (token && !extra ? zoneOfToken(token) : null) ?? resolveZone(name);
}
