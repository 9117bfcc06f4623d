import { quote, ScheduleError } from './errors.js';
import type { Token } from './tokens.js';
import { WEEKDAYS } from './vocabulary.js';

export const DEFAULT_TIMEZONE = 'UTC';

/**
 * Abbreviations and names people write, mapped to the IANA zone they mean. They stand for the
 * region's civil time all year, daylight saving included: "9am EST" in July is 9am in New York.
 */
export const ZONE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  utc: 'UTC',
  gmt: 'UTC',
  est: 'America/New_York',
  edt: 'America/New_York',
  et: 'America/New_York',
  eastern: 'America/New_York',
  cst: 'America/Chicago',
  cdt: 'America/Chicago',
  ct: 'America/Chicago',
  central: 'America/Chicago',
  mst: 'America/Denver',
  mdt: 'America/Denver',
  mt: 'America/Denver',
  mountain: 'America/Denver',
  pst: 'America/Los_Angeles',
  pdt: 'America/Los_Angeles',
  pt: 'America/Los_Angeles',
  pacific: 'America/Los_Angeles',
  akst: 'America/Anchorage',
  akdt: 'America/Anchorage',
  hst: 'Pacific/Honolulu',
  bst: 'Europe/London',
  cet: 'Europe/Berlin',
  cest: 'Europe/Berlin',
  eet: 'Europe/Athens',
  eest: 'Europe/Athens',
  msk: 'Europe/Moscow',
  sast: 'Africa/Johannesburg',
  jst: 'Asia/Tokyo',
  kst: 'Asia/Seoul',
  hkt: 'Asia/Hong_Kong',
  sgt: 'Asia/Singapore',
  awst: 'Australia/Perth',
  acst: 'Australia/Adelaide',
  acdt: 'Australia/Adelaide',
  aest: 'Australia/Sydney',
  aedt: 'Australia/Sydney',
  nzst: 'Pacific/Auckland',
  nzdt: 'Pacific/Auckland',
};

/** Abbreviations in common use for several zones: guessing would silently shift runs by hours. */
const AMBIGUOUS_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ist: 'Asia/Kolkata, Asia/Jerusalem or Europe/Dublin',
  ast: 'America/Halifax or Asia/Riyadh',
};

/** canonicalIana's answers so far, unknown names (null) included. */
const canonicalNames = new Map<string, string | null>();
const MAX_CANONICAL_NAMES = 1_000;

/**
 * Validates a zone name with Intl and settles its spelling. ICU canonicalises to CLDR's legacy
 * names (Asia/Kolkata -> Asia/Calcutta), so a name typed with capitals is kept as typed, and
 * only an all-lower-case one is recased ("europe/berlin" -> "Europe/Berlin").
 */
function canonicalIana(name: string): string | null {
  const known = canonicalNames.get(name);
  if (known !== undefined) return known;
  const canonical = settleIana(name);
  // Pure (what Intl knows does not change while the process runs); building a DateTimeFormat
  // costs ~0.1-0.5 ms a call. Bounded: names come from callers.
  if (canonicalNames.size >= MAX_CANONICAL_NAMES) canonicalNames.clear();
  canonicalNames.set(name, canonical);
  return canonical;
}

function settleIana(name: string): string | null {
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (name.toLowerCase() === canonical.toLowerCase()) return canonical;
  if (name !== name.toLowerCase()) return name;
  return name.replace(/(^|[/_-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** A table lookup that never answers with an inherited property ("constructor", "__proto__"). */
const lookup = (table: Readonly<Record<string, string>>, key: string): string | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** Resolves an IANA name or documented abbreviation; throws ScheduleError for anything else. */
export function resolveZone(name: string): string {
  const trimmed = name.trim();
  const key = trimmed.toLowerCase();
  const mapped = lookup(ZONE_ABBREVIATIONS, key);
  if (mapped) return mapped;
  const ambiguous = lookup(AMBIGUOUS_ABBREVIATIONS, key);
  if (ambiguous) throw new ScheduleError(`Ambiguous time zone ${quote(trimmed)}: use an IANA name such as ${ambiguous}`);
  // Offsets like "+02:00" are not zone names; only "UTC+2" in a description is.
  const canonical = /^[\p{L}_]/u.test(trimmed) ? canonicalIana(trimmed) : null;
  if (!canonical) throw new ScheduleError(`Unknown time zone ${quote(trimmed)}`);
  return canonical;
}

function offsetZone(token: Token): string {
  const m = /([+\-\u2212])\s?(\d{1,2})(?::?(\d{2}))?$/u.exec(token.text);
  const hours = Number(m?.[2] ?? NaN);
  const minutes = Number(m?.[3] ?? 0);
  // IANA's fixed-offset zones (Etc/GMT-2) are whole hours from UTC-12 to UTC+14: a +05:30 zone would not be exact.
  const beyond = hours > (m?.[1] === '+' ? 14 : 12);
  if (!m || beyond || minutes !== 0) {
    const why = beyond
      ? "IANA's fixed-offset zones go from UTC-12 to UTC+14"
      : 'IANA has fixed-offset zones for whole hours only';
    throw new ScheduleError(
      `Unsupported time zone ${quote(token.text)}: ${why}; use a whole-hour offset such as UTC+2, or an IANA name such as Asia/Kolkata`,
    );
  }
  if (hours === 0) return 'UTC';
  // IANA's Etc/GMT zones have the POSIX sign: UTC+2 is Etc/GMT-2.
  const sign = m[1] === '+' ? '-' : '+';
  return `Etc/GMT${sign}${hours}`;
}

/** "Mon/Wed/Fri" has the shape of a zone name but is a list of days, read by the grammar. */
export function isWeekdaySlashList(token: Token): boolean {
  return token.kind === 'zone' && token.lower.split('/').every((part) => WEEKDAYS.has(part));
}

/**
 * "CET/CEST", "EST/EDT", "PST/PDT": a zone's winter and summer abbreviations, as people write the
 * zone all year; null when a part is no abbreviation. Abbreviations of two zones conflict.
 */
function abbreviationPair(token: Token): string | null {
  const parts = token.lower.split('/');
  const zones = parts.map((part) => lookup(ZONE_ABBREVIATIONS, part));
  if (zones.some((z) => z === undefined)) return null;
  const [first] = zones;
  const other = zones.findIndex((z) => z !== first);
  if (other >= 0) {
    const [a, b] = [token.text.split('/')[0] ?? '', token.text.split('/')[other] ?? ''];
    throw new ScheduleError(`Conflicting time zones ${quote(a)} and ${quote(b)} in the schedule description`);
  }
  return first ?? null;
}

/** The zone a single token names (an IANA name, an offset, an abbreviation), or null. */
export function zoneOfToken(token: Token): string | null {
  if (isWeekdaySlashList(token)) return null;
  if (token.kind === 'zone') return abbreviationPair(token) ?? resolveZone(token.text);
  if (token.kind === 'offset') return offsetZone(token);
  if (token.kind !== 'word') return null;
  if (lookup(ZONE_ABBREVIATIONS, token.lower) || lookup(AMBIGUOUS_ABBREVIATIONS, token.lower)) return resolveZone(token.text);
  return null;
}

// ---- "Paris time", "New York time", "Japan time" ---------------------------------------------

/** IANA areas tried for a city name: "Paris time" is Europe/Paris, the only area with a Paris. */
const AREAS = ['Europe', 'America', 'Asia', 'Africa', 'Australia', 'Pacific', 'Atlantic', 'Indian', 'Antarctica'];

/** Countries on one civil time all year round, named as people do ("Japan time"). */
const COUNTRY_ZONES: Readonly<Record<string, string>> = {
  japan: 'Asia/Tokyo',
  india: 'Asia/Kolkata',
  germany: 'Europe/Berlin',
  france: 'Europe/Paris',
  uk: 'Europe/London',
  britain: 'Europe/London',
  ireland: 'Europe/Dublin',
  italy: 'Europe/Rome',
  netherlands: 'Europe/Amsterdam',
  belgium: 'Europe/Brussels',
  switzerland: 'Europe/Zurich',
  austria: 'Europe/Vienna',
  poland: 'Europe/Warsaw',
  sweden: 'Europe/Stockholm',
  norway: 'Europe/Oslo',
  denmark: 'Europe/Copenhagen',
  finland: 'Europe/Helsinki',
  greece: 'Europe/Athens',
  turkey: 'Europe/Istanbul',
  israel: 'Asia/Jerusalem',
  korea: 'Asia/Seoul',
  china: 'Asia/Shanghai',
  singapore: 'Asia/Singapore',
  philippines: 'Asia/Manila',
  thailand: 'Asia/Bangkok',
  egypt: 'Africa/Cairo',
  nigeria: 'Africa/Lagos',
  kenya: 'Africa/Nairobi',
};

/** Countries with several civil times: a guess could be hours off. */
const MULTI_ZONE_COUNTRIES = new Set([
  'us',
  'usa',
  'america',
  'canada',
  'australia',
  'russia',
  'brazil',
  'mexico',
  'indonesia',
  'spain',
  'portugal',
  'argentina',
  'chile',
]);

/** cityZone's answers by city, which otherwise asks canonicalIana once per area. Bounded as canonicalNames. */
const cityZones = new Map<string, string | null>();

function cityZone(words: readonly Token[]): string | null {
  const city = words.map((w) => w.lower).join('_');
  const known = cityZones.get(city);
  if (known !== undefined) return known;
  // All lower case, so canonicalIana settles the spelling ("kolkata" -> Asia/Kolkata).
  const matches = AREAS.map((area) => canonicalIana(`${area.toLowerCase()}/${city}`)).filter((z): z is string => z !== null);
  const zone = matches.length === 1 ? (matches[0] as string) : null;
  if (cityZones.size >= MAX_CANONICAL_NAMES) cityZones.clear();
  cityZones.set(city, zone);
  return zone;
}

/** The last part of every zone Intl lists, lower case ("berlin", "new_york"); made on first use. */
let listedCities: ReadonlySet<string> | null = null;

function isListedCity(city: string): boolean {
  listedCities ??= new Set(Intl.supportedValuesOf('timeZone').map((z) => (z.split('/').pop() ?? '').toLowerCase()));
  return listedCities.has(city);
}

/**
 * "in Berlin", "(New York)", "in Japan" (issue 46): a one-zone country, or a city Intl lists,
 * named by these words. Unlike placeZone, a name not in Intl's list (one set lookup) is never
 * asked of Intl area by area (~0.1 ms a name), so words after "in" cost next to nothing.
 */
export function namedPlaceZone(words: readonly Token[]): string | null {
  const name = words.map((w) => w.lower).join(' ');
  const country = lookup(COUNTRY_ZONES, name);
  if (country) return country;
  return isListedCity(words.map((w) => w.lower).join('_')) ? cityZone(words) : null;
}

/** A one-zone country or an IANA city named by these words ("Japan", "Paris", "New York"), or null. */
export function placeZone(words: readonly Token[]): string | null {
  const name = words.map((w) => w.lower).join(' ');
  return lookup(COUNTRY_ZONES, name) ?? cityZone(words);
}

/**
 * "<city> time" / "<country> time" just before a "time" word: up to three words, the longest
 * reading first ("New York time"). Returns the zone and the tokens, "time" included.
 */
export function placeBeforeTime(tokens: readonly Token[], timeIndex: number): { zone: string; tokens: Token[] } | null {
  const words: Token[] = [];
  for (let j = timeIndex - 1; j >= 0 && words.length < 3; j--) {
    const t = tokens[j] as Token;
    if (t.used || t.kind !== 'word') break;
    words.unshift(t);
  }
  const time = tokens[timeIndex] as Token;
  for (let n = words.length; n >= 1; n--) {
    const place = words.slice(words.length - n);
    const name = place.map((w) => w.lower).join(' ');
    if (n === 1 && MULTI_ZONE_COUNTRIES.has(name)) {
      const text = `${(place[0] as Token).text} ${time.text}`;
      throw new ScheduleError(
        `${quote(text)} is ambiguous: the country has several time zones; name a city ("New York time") or an IANA zone`,
      );
    }
    const zone = lookup(COUNTRY_ZONES, name) ?? cityZone(place);
    if (zone) return { zone, tokens: [...place, time] };
  }
  return null;
}
