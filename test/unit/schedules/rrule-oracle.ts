/**
 * An independent reading of schedule_info.rrule: the npm package `rrule` (test-only) expands the
 * RRULE, and RFC 5545 §3.3.5 turns its local times into instants, with offsets read from Intl.
 *
 * Why not rrule's own TZID support: it reads each local time with the offset at the wrong instant
 * (the local time taken as UTC), which is an hour off for some hours of a DST change day
 * (jkbrzt/rrule#295, open). So a TZID rule is expanded as floating local times and read here; a
 * rule in UTC ("Z") is rrule's answer as it is.
 */
import rrulePackage from 'rrule';

const { RRule, rrulestr } = rrulePackage;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset at the instant, in minutes, as Intl reports it. */
export function offsetAt(zone: string, instant: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
  return Math.round((wall - Math.floor(instant / MINUTE_MS) * MINUTE_MS) / MINUTE_MS);
}

/**
 * RFC 5545 §3.3.5: a local time (held as UTC fields) is the instant with that wall time; when there
 * are two (clocks go back) the first; when there is none (a gap) it is read with the offset in
 * force before the gap.
 */
export function instantOfLocal(wall: number, zone: string): number {
  const offsets = new Set([offsetAt(zone, wall - DAY_MS), offsetAt(zone, wall), offsetAt(zone, wall + DAY_MS)]);
  const valid = [...offsets].map((o) => wall - o * MINUTE_MS).filter((t) => offsetAt(zone, t) === (wall - t) / MINUTE_MS);
  if (valid.length > 0) return Math.min(...valid);
  return wall - offsetAt(zone, wall - DAY_MS) * MINUTE_MS;
}

/**
 * The first `count` occurrences of the rule strictly after `after`, ISO 8601 without
 * milliseconds; fewer when it ends. Occurrences that land on one instant are one (a recurrence
 * set is a set).
 */
export function occurrencesAfter(text: string, after: Date, count: number): string[] {
  const rule = rrulestr(text) as InstanceType<typeof RRule>;
  const { tzid, until, ...rest } = rule.origOptions;
  const found = new Set<number>();
  if (!tzid) {
    rule.all((date) => {
      if (date.getTime() > after.getTime()) found.add(date.getTime());
      return found.size < count;
    });
  } else {
    const floating = new RRule({ ...rest, tzid: null });
    const untilMs = until ? until.getTime() : Number.POSITIVE_INFINITY;
    // Local times come in order and their instants almost so (a time in a gap moves past the next
    // ones by at most the gap): read on two days past the count-th before stopping.
    let enough = Number.POSITIVE_INFINITY;
    floating.all((wall, i) => {
      if (wall.getTime() > enough + 2 * DAY_MS || i > 200_000) return false;
      const instant = instantOfLocal(wall.getTime(), tzid);
      if (instant > after.getTime() && instant <= untilMs) found.add(instant);
      if (found.size >= count && enough === Number.POSITIVE_INFINITY) enough = wall.getTime();
      // Past until (in local time, a day of slack for the offset): nothing more can come.
      return wall.getTime() <= untilMs + DAY_MS;
    });
  }
  return [...found]
    .sort((a, b) => a - b)
    .slice(0, count)
    .map((t) => `${new Date(t).toISOString().slice(0, -5)}Z`);
}
