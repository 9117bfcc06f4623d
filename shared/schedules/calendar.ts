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

export function civilDate(days: number): CivilDate {
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

export function daysInMonth(year: number, month: number): number {
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
