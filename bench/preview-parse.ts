/**
 * `npm run bench:preview -- [--iterations 20000] [--rounds 5] [--phrase "every day at noon"]`
 *
 * The CPU of one schedule preview in this process, without HTTP or DynamoDB: previewSchedule
 * as the route calls it, then its parts (describeSchedule, the further nextRunAt calls and
 * sayScheduleInEnglish) timed on their own. Each phrase is warmed up first, so that the JIT,
 * the zone offset cache and Intl's formatters are as a warm Lambda container has them.
 * `--phrase` (repeatable) times those descriptions instead, in Europe/Berlin; one phrase a
 * process keeps the JIT's view of the code as the route bench's single request leaves it.
 */
import { parseArgs } from 'node:util';
import { ApiError } from '../shared/errors.js';
import type { Deps } from '../shared/runtime.js';
import * as Schedules from '../shared/schedules/index.js';
import {
  describeSchedule,
  nextRunAt,
  type ScheduleDescription,
  ScheduleError,
  sayScheduleInEnglish,
} from '../shared/schedules/index.js';
import { previewSchedule } from '../shared/services/schedule-preview.js';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    phrase: { type: 'string', multiple: true },
  },
});
const iterations = Number(values.iterations);
const rounds = Number(values.rounds);

/** The route bench's request (bench/routes.ts) first, then a few other common shapes. */
const REQUESTS: Array<{ schedule_description: string; timezone: string | null }> = values.phrase
  ? values.phrase.map((schedule_description) => ({ schedule_description, timezone: 'Europe/Berlin' }))
  : [
      { schedule_description: 'every weekday at 9am', timezone: 'Europe/Berlin' },
      { schedule_description: 'every 15 minutes', timezone: null },
      { schedule_description: 'on the first Monday of each month at 8:30 in the Tokyo timezone', timezone: null },
      { schedule_description: 'every day at noon', timezone: 'America/New_York' },
      // Refused (a city needs "timezone" after it): the 400's cost, chrono-node's wording included.
      { schedule_description: 'on the first Monday of each month at 8:30 in Tokyo', timezone: null },
    ];
const COUNT = 5;

const deps = { clock: { now: () => new Date() } } as Deps;

/**
 * CPU microseconds (user + system) per call of `work`, after as many calls to warm up: the
 * least of `rounds` rounds, the one other processes on the machine disturbed least.
 */
const cpuMicros = (work: () => unknown): number => {
  for (let i = 0; i < iterations; i += 1) work();
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i += 1) work();
    const used = process.cpuUsage(start);
    least = Math.min(least, (used.user + used.system) / iterations);
  }
  return least;
};

/** `work`, with the refusal of a description it may throw (a 400 is a preview's answer too). */
const refusing = (work: () => unknown) => () => {
  try {
    return work();
  } catch (error) {
    if (error instanceof ScheduleError || (error instanceof ApiError && error.status === 400)) return error;
    throw error;
  }
};

const rows = REQUESTS.map(({ schedule_description, timezone }) => {
  const request = { schedule_description, timezone, count: COUNT };
  const now = new Date();
  const options = { timezone: timezone ?? undefined, now };
  const described = refusing(() => describeSchedule(schedule_description, options))();
  const preview = cpuMicros(refusing(() => previewSchedule(Schedules, deps, request)));
  const parse = cpuMicros(refusing(() => describeSchedule(schedule_description, options)));
  if (described instanceof ScheduleError) {
    return { phrase: `${schedule_description} (refused)`, preview, parse, nextRuns: 0, english: 0 };
  }
  const { schedule_info: info, next_run_at } = described as ScheduleDescription;
  const first = new Date(next_run_at);
  return {
    phrase: schedule_description,
    preview,
    parse,
    nextRuns: cpuMicros(() => {
      let run = first;
      for (let n = 1; n < COUNT; n += 1) run = nextRunAt(info, run);
      return run;
    }),
    english: cpuMicros(() => sayScheduleInEnglish(info)),
  };
});

const fixed = (n: number) => n.toFixed(1).padStart(7);
console.log(`µs of CPU per call: least of ${rounds} rounds of ${iterations} calls, after as many to warm up (count ${COUNT})`);
console.log(`${'preview'.padStart(7)} ${'parse'.padStart(7)} ${'next4'.padStart(7)} ${'english'.padStart(7)}  phrase`);
for (const row of rows) {
  console.log(`${fixed(row.preview)} ${fixed(row.parse)} ${fixed(row.nextRuns)} ${fixed(row.english)}  ${row.phrase}`);
}
