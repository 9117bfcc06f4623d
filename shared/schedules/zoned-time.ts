/**
 * Local wall time <-> instants in an IANA zone, with the RFC 5545 (iCalendar) rules that
 * Temporal calls 'compatible':
 * - a wall time that occurs twice (clocks go back) means the first, earlier instant;
 * - a wall time that does not exist (clocks go forward) is read with the offset in force
 *   before the gap, so 02:30 on a spring-forward night becomes 03:30 new time.
 */
import { tzOffset } from '@date-fns/tz/tzOffset';
import { type CivilDate, DAY_MS } from './calendar.js';

const MINUTE_MS = 60_000;

/** An IANA zone that Intl knows (resolveZone's, or offsetZone's Etc/GMT) as the one thing the calendar needs of it. */
export interface Zone {
  readonly name: string;
  /** Minutes ahead of UTC at `instant` (ms since the epoch): 60 for Berlin in winter. */
  offset(instant: number): number;
}

/** zoneOf's answers. Bounded: names are resolved zones, of which Intl knows a few hundred. */
const zones = new Map<string, Zone>();
const MAX_ZONES = 1_000;

// @date-fns/tz reads the offset from Intl (cached per zone): ~1 KB, where luxon was ~70 KB
// for the same Intl call in every function that parses schedules (docs/performance.md).
// Known: 1.5.0 gives offsets of -00:MM the wrong sign; only local mean times before 1972
// (Dublin before 1916, Monrovia) had one, which only a start date that far back meets.
export function zoneOf(name: string): Zone {
  // One Zone per name, not a closure per call: every run search and every parse asks for one.
  let zone = zones.get(name);
  if (!zone) {
    if (zones.size >= MAX_ZONES) zones.clear();
    zone = { name, offset: (instant) => cachedOffset(name, instant) };
    zones.set(name, zone);
  }
  return zone;
}

const HOUR_MS = 60 * MINUTE_MS;
/** Bounded: emptied when full (a zone-hour is a handful of bytes; schedules meet few of them). */
const MAX_CACHED_HOURS = 20_000;
/** Per zone, its offset by UTC hour number (numbers as keys: no string made per lookup). */
const offsets = new Map<string, Map<number, number>>();
let cachedHours = 0;

/**
 * A zone's offset, remembered per UTC hour when it is the same at both ends of that hour (no
 * transition inside it): an Intl call costs ~5 µs, and the next runs of schedules fall on the
 * same few hours over and over. An hour with a transition is always asked of Intl.
 */
const cachedOffset = (name: string, instant: number): number => {
  const hour = Math.floor(instant / HOUR_MS);
  let zone = offsets.get(name);
  const known = zone?.get(hour);
  if (known !== undefined) return known;
  const start = tzOffset(name, new Date(hour * HOUR_MS));
  const end = tzOffset(name, new Date(hour * HOUR_MS + HOUR_MS - 1));
  if (start !== end) return tzOffset(name, new Date(instant));
  if (cachedHours >= MAX_CACHED_HOURS) {
    offsets.clear();
    cachedHours = 0;
    zone = undefined;
  }
  if (!zone) {
    zone = new Map();
    offsets.set(name, zone);
  }
  zone.set(hour, start);
  cachedHours += 1;
  return start;
};

export function localDayNumber(instant: number, zone: Zone): number {
  return Math.floor((instant + zone.offset(instant) * MINUTE_MS) / DAY_MS);
}

/**
 * Every instant at which the wall time occurs: two when clocks go back over it, and when it
 * does not exist, the one instant read with the offset in force before the gap.
 */
export function localToInstants(date: CivilDate, hour: number, minute: number, zone: Zone): number[] {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  // Offsets a day either side bracket any single transition near this wall time.
  const before = zone.offset(wall - DAY_MS);
  const at = zone.offset(wall);
  const after = zone.offset(wall + DAY_MS);
  // The same offset throughout (most days): its instant is the answer whichever way the check
  // below goes, valid or in a gap, so it is not made.
  if (before === at && at === after) return [wall - before * MINUTE_MS];
  const candidates = [before, at, after];
  const valid = candidates
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => zone.offset(instant) === (wall - instant) / MINUTE_MS);
  if (valid.length > 0) return [...new Set(valid)].sort((a, b) => a - b);
  return [wall - before * MINUTE_MS];
}

/** The one instant of a wall time: the earlier when it occurs twice. */
export function localToInstant(date: CivilDate, hour: number, minute: number, zone: Zone): number {
  return localToInstants(date, hour, minute, zone)[0] as number;
}
