import { isoSeconds } from '../../shared/domain/clock.js';

describe('isoSeconds', () => {
  test('writes each instant as toISOString would, without the milliseconds, whatever came before', () => {
    // The last second written is kept: alternate between seconds, and within one, to catch a stale answer.
    const instants = [
      '2026-11-27T05:04:41.000Z',
      '2026-11-27T05:04:41.999Z',
      '2026-11-27T05:04:42.001Z',
      '2026-11-27T05:04:41.500Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2026-11-27T05:04:42.000Z',
    ];
    for (const instant of instants) expect(isoSeconds(new Date(instant))).toBe(`${instant.slice(0, 19)}Z`);
  });

  test('refuses an invalid date, as toISOString does, even right after a valid one', () => {
    isoSeconds(new Date('2026-11-27T05:04:41Z'));
    expect(() => isoSeconds(new Date(Number.NaN))).toThrow(RangeError);
  });
});
