/** Proleptic Gregorian calendar arithmetic on plain numbers; no time zones involved. */

export const DAY_MS = 86_400_000;

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Days since 1970-01-01. */
export function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** Days a Date can hold either side of the epoch (±8.64e15 ms). */
const MAX_DATE_DAYS = 100_000_000;
/** Days from 0000-03-01 to 1970-01-01, and in each 400-year era (civilDate's arithmetic). */
const EPOCH_FROM_MARCH_0000 = 719_468;
const DAYS_PER_ERA = 146_097;

export function civilDate(days: number): CivilDate {
  // A run search reads one date a day it walks: arithmetic (H. Hinnant's days_from_civil,
  // inverted), not a Date per day. The same proleptic Gregorian dates as Date's; anything a
  // Date reads otherwise (a fraction of a day, beyond its range) is still read by one.
  if (Number.isInteger(days) && Math.abs(days) <= MAX_DATE_DAYS) {
    const z = days + EPOCH_FROM_MARCH_0000;
    const era = Math.floor(z / DAYS_PER_ERA);
    const dayOfEra = z - era * DAYS_PER_ERA;
    const yearOfEra = Math.floor(
      (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
    );
    const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
    const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
    const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
    const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
    return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
  }
  const d = new Date(days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

/** Index of the ISO week (Monday to Sunday) containing the day; 1970-01-05 was a Monday. */
export function isoWeekIndex(days: number): number {
  return Math.floor((days - 4) / 7);
}

const MONTH_LENGTHS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  // Asked for each day a run search walks: a table, not a Date. Date.UTC reads the years 0 to
  // 99 as 1900 to 1999, so those (and anything not a plain year and month) still go to it.
  if (Number.isInteger(year) && year >= 100 && year <= 200_000 && Number.isInteger(month) && month >= 1 && month <= 12) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    return month === 2 && leap ? 29 : (MONTH_LENGTHS[month] as number);
  }
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function formatDate(c: CivilDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}`;
}

/** Parses 'YYYY-MM-DD'; null unless it names a real date. */
export function parseDate(text: string): CivilDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}
