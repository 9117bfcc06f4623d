/**
 * civilDate and daysInMonth work dates out without a Date where they can (a run search asks for
 * one of each per day it walks): their answers must be the ones a Date gives, everywhere.
 */
import { civilDate, DAY_MS, daysInMonth } from '../../../shared/schedules/calendar.js';

const byDate = (days: number) => {
  const d = new Date(days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};
const monthLengthByDate = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const same = (a: { year: number; month: number; day: number }, b: typeof a) =>
  Object.is(a.year, b.year) && Object.is(a.month, b.month) && Object.is(a.day, b.day);

describe('civilDate: the date a Date reads', () => {
  test('every day from 1600 to 2400, and around the epoch', () => {
    // 1600-03-01 is day -135080; 2400 ends on day 157054.
    const wrong: number[] = [];
    for (let days = -135_200; days <= 157_100; days += 1) if (!same(civilDate(days), byDate(days))) wrong.push(days);
    expect(wrong).toEqual([]);
  });

  test('the years 0 to 99, negative years and the ends of the range a Date holds', () => {
    const days = [
      -719_528, -719_469, -719_468, -719_163, -700_000, -1_000_000, -50_000_000, 99_999_999, 100_000_000, -100_000_000,
    ];
    for (const day of days) expect(civilDate(day)).toEqual(byDate(day));
  });

  test('outside a Date, and not a whole day: as a Date reads them', () => {
    for (const day of [100_000_001, -100_000_001, 0.5, -0.5, 19_000.25, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(civilDate(day)).toEqual(byDate(day));
    }
  });
});

describe('daysInMonth: the length Date.UTC gives', () => {
  test('every month from the year -500 to 3000, the years 0 to 99 (1900 to 1999 to Date.UTC) included', () => {
    const wrong: string[] = [];
    for (let year = -500; year <= 3000; year += 1) {
      for (let month = 1; month <= 12; month += 1) {
        if (daysInMonth(year, month) !== monthLengthByDate(year, month)) wrong.push(`${year}-${month}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('months out of 1 to 12, fractions and far years: as Date.UTC reads them', () => {
    const cases: Array<[number, number]> = [
      [2026, 0],
      [2026, 13],
      [2024, 2.5],
      [2024.5, 2],
      [200_000, 2],
      [200_001, 2],
      [275_760, 9],
      [300_000, 1],
    ];
    for (const [year, month] of cases) expect(daysInMonth(year, month)).toBe(monthLengthByDate(year, month));
  });
});
