import type { ScheduleInfo } from '../../shared/schedules/index.js';

/** A schedule_info as the API returns it: daily at 09:00 UTC, every field present, with `x` on top. */
export const scheduleInfo = (x: Partial<ScheduleInfo> = {}): ScheduleInfo => ({
  schedule_type: 'daily',
  schedule_time: '09:00',
  days_of_week: null,
  days_of_month: null,
  weeks_of_month: null,
  months_of_year: null,
  interval: 1,
  timezone: 'UTC',
  anchor_date: null,
  ...x,
});
