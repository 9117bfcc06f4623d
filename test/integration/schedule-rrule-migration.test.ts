/**
 * `knap-admin migrate`, step `schedule-rrule`: active scheduled Knaps stored before
 * schedule_info.rrule get theirs, from their next run on; a second run changes nothing, and a
 * Knap changed since the scan keeps what the change wrote.
 */
import { randomUUID } from 'node:crypto';
import type { Knap } from '../../shared/domain/knaps.js';
import { describeSchedule } from '../../shared/schedules/index.js';
import { MIGRATIONS, runMigrations } from '../../shared/services/migrations.js';
import type { DocumentSender } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

const NOW = new Date('2026-11-28T10:00:00Z');
const clock = { now: () => NOW };
const step = MIGRATIONS.filter((migration) => migration.id === 'schedule-rrule');

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

/** A Knap as a version before rrule stored it: schedule_info without the member. */
const storedBeforeRrule = async (description: string, overrides: Partial<Knap> = {}): Promise<Knap> => {
  const { schedule_info, next_run_at } = describeSchedule(description, { timezone: 'Europe/Berlin', now: NOW });
  const { rrule: _dropped, ...before } = schedule_info as NonNullable<Knap['schedule_info']> & { rrule?: unknown };
  const knap: Knap = {
    uuid: randomUUID(),
    name: description,
    creation_user_id: 1,
    schedule_type: 'scheduled',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { schedule_description: description, timezone: 'Europe/Berlin' },
    creation_timestamp: '2026-11-01T12:00:00.000Z',
    updated_at: '2026-11-01T12:00:00.000Z',
    schedule_info: before as Knap['schedule_info'],
    next_run_at,
    ...overrides,
  };
  await table.deps(clock).repo.putKnap(knap, { orgName: 'rrule', creatorClientId: 'knap_ci_rrule' });
  return knap;
};

const readBack = async (knap: Knap) => (await table.deps(clock).repo.getKnap('rrule', knap.uuid))?.knap;

test('gives each active scheduled Knap the rrule a new one would get, once', async () => {
  const weekdays = await storedBeforeRrule('every weekday at 9am');
  const paused = await storedBeforeRrule('every day at noon', { is_active: false, next_run_at: null });
  const [first] = await runMigrations(table.deps(clock), step);
  expect(first?.changed.added).toBeGreaterThanOrEqual(1);
  // What the parser says of the same schedule now, from the same next run.
  expect((await readBack(weekdays))?.schedule_info).toEqual(
    describeSchedule('every weekday at 9am', { timezone: 'Europe/Berlin', now: NOW }).schedule_info,
  );
  expect((await readBack(weekdays))?.schedule_info?.rrule).toBe(
    'DTSTART;TZID=Europe/Berlin:20261130T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
  );
  // A paused Knap gets its rrule when it is activated, which reads its schedule again.
  expect((await readBack(paused))?.schedule_info).not.toHaveProperty('rrule');
  const [second] = await runMigrations(table.deps(clock), step);
  expect(second?.changed).toEqual({ added: 0 });
});

test('leaves a Knap whose next run moved since the scan to the write that moved it', async () => {
  const knap = await storedBeforeRrule('every day at 8am');
  const { repo } = table.deps(clock);
  const stored = await repo.getKnap('rrule', knap.uuid);
  // The dispatcher claims the Knap's occurrence between the scan and the step's write to it.
  let claimed = false;
  const racing: DocumentSender = {
    send: async (command) => {
      const update = (command as { input?: { UpdateExpression?: string; Key?: { sk?: string } } }).input;
      if (!claimed && update?.UpdateExpression?.includes('rrule') && update.Key?.sk?.endsWith(knap.uuid)) {
        claimed = true;
        expect(await repo.claimOccurrence(stored!, '2026-11-30T07:00:00Z')).toBe(true);
      }
      return table.documents.send(command);
    },
  };
  await new DynamoRepository(racing, table.tableName).backfillScheduleRrules(() => 'RRULE:FREQ=DAILY');
  expect(claimed).toBe(true);
  const after = (await repo.getKnap('rrule', knap.uuid))?.knap;
  expect(after?.next_run_at).toBe('2026-11-30T07:00:00Z');
  expect(after?.schedule_info).not.toHaveProperty('rrule');
});
