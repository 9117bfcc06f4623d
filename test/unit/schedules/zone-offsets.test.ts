/**
 * Zone offsets are remembered per UTC hour (shared/schedules/zoned-time.ts): the remembered
 * answer must be Intl's own at every instant, around transitions above all, in zones whose
 * clocks move by an hour, by half an hour, or at half past.
 */
import { tzOffset } from '@date-fns/tz/tzOffset';
import { zoneOf } from '../../../shared/schedules/zoned-time.js';

const ZONES = ['Europe/Berlin', 'America/New_York', 'America/St_Johns', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
/** Days around the 2026 transitions of those zones, and a plain day. */
const DAYS = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-10-25', '2026-11-01', '2026-06-15'];

test.each(ZONES)('%s: every 7 minutes across two days around each transition, asked twice, as Intl says', (name) => {
  const zone = zoneOf(name);
  let compared = 0;
  for (const day of DAYS) {
    const from = Date.parse(`${day}T00:00:00Z`) - 24 * 3_600_000;
    for (let instant = from; instant < from + 48 * 3_600_000; instant += 7 * 60_000 + 13_000) {
      const expected = tzOffset(name, new Date(instant));
      expect(zone.offset(instant)).toBe(expected);
      expect(zone.offset(instant)).toBe(expected);
      compared += 1;
    }
  }
  expect(compared).toBeGreaterThan(2000);
});
