import { describeSchedule, ScheduleError } from './shared/schedules/index.js';
const now = new Date(process.argv[2] ?? '2026-03-01T12:00:00Z');
const tz = process.env.TZNAME;
for (const line of (await import("node:fs")).readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  try {
    const r = describeSchedule(line, { now, timezone: tz });
    const i = r.schedule_info;
    console.log(JSON.stringify(line).padEnd(50), i.schedule_type, i.schedule_time, 'dow', JSON.stringify(i.days_of_week), 'dom', JSON.stringify(i.days_of_month), 'wom', JSON.stringify(i.weeks_of_month), 'moy', JSON.stringify(i.months_of_year), 'int', i.interval, i.timezone, i.anchor_date, '->', r.next_run_at);
  } catch (e) {
    console.log(JSON.stringify(line).padEnd(50), e instanceof ScheduleError ? 'ERR: ' + e.detail : 'CRASH ' + (e as Error).stack);
  }
}
