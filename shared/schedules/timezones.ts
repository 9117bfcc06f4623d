import { IANAZone } from 'luxon';
import { quote, ScheduleError } from './errors.js';
import { markUsed, type Token } from './tokens.js';
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

/**
 * Validates a zone name with Intl and settles its spelling. ICU canonicalises to CLDR's legacy
 * names (Asia/Kolkata -> Asia/Calcutta), so a name typed with capitals is kept as typed, and
 * only an all-lower-case one is recased ("europe/berlin" -> "Europe/Berlin").
 */
function canonicalIana(name: string): string | null {
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (!IANAZone.isValidZone(canonical)) return null;
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
  const m = /([+\-−])\s?(\d{1,2})(?::?(\d{2}))?$/u.exec(token.text);
  const hours = Number(m?.[2] ?? NaN);
  const minutes = Number(m?.[3] ?? 0);
  if (!m || hours > 14 || minutes !== 0) {
    throw new ScheduleError(`Unsupported time zone ${quote(token.text)}: use a whole-hour offset such as UTC+2, or an IANA name`);
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

function zoneOfToken(token: Token): string | null {
  if (isWeekdaySlashList(token)) return null;
  if (token.kind === 'zone') return resolveZone(token.text);
  if (token.kind === 'offset') return offsetZone(token);
  if (token.kind !== 'word') return null;
  if (lookup(ZONE_ABBREVIATIONS, token.lower) || lookup(AMBIGUOUS_ABBREVIATIONS, token.lower)) return resolveZone(token.text);
  return null;
}

export interface ZoneMention {
  zone: string;
  text: string;
}

/** Claims every time-zone mention in the tokens; two different zones are a contradiction. */
export function extractZone(tokens: readonly Token[]): ZoneMention | null {
  let found: ZoneMention | null = null;
  for (const token of tokens) {
    if (token.used) continue;
    const zone = zoneOfToken(token);
    if (!zone) continue;
    if (found && found.zone !== zone) {
      throw new ScheduleError(`Conflicting time zones ${quote(found.text)} and ${quote(token.text)} in the schedule description`);
    }
    markUsed([token]);
    found ??= { zone, text: token.text };
  }
  return found;
}
