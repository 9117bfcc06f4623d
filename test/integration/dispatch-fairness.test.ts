/**
 * The dispatcher is fair across organizations (contract, "Webhooks operators trust"): one
 * organization's hot minute puts another's run at most one place per organization back, never
 * behind the whole minute. Proved by order (what was queued first), not by timing.
 */
import { randomUUID } from 'node:crypto';
import type { Knap } from '../../shared/domain/knaps.js';
import type { DueEntry } from '../../shared/domain/repository.js';
import { runId } from '../../shared/domain/runs.js';
import { describeSchedule } from '../../shared/schedules/index.js';
import { dispatchDueRuns, fairOrder, PER_ORG_PER_ROUND } from '../../shared/services/dispatcher.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

const DUE = '2026-11-30T09:00:00Z';
let table: TestTable;
const clock = new FakeClock(new Date('2026-11-30T09:00:01Z'));

beforeAll(async () => {
  table = await startTestTable();
});
afterAll(async () => {
  await table?.close();
});

const entry = (orgName: string, nextRunAt: string, n: number): DueEntry => ({
  key: { pk: `ORG#${orgName}`, sk: `KNAP#${String(n).padStart(4, '0')}` },
  orgName,
  nextRunAt,
});

test('fairOrder: round-robin by organization, oldest first, at most perOrg of each', () => {
  const hot = Array.from({ length: 5 }, (_, n) => entry('x', DUE, n));
  const entries = [...hot, entry('y', DUE, 9), entry('z', '2026-11-30T08:59:00Z', 7)];
  const { order, capped } = fairOrder(entries, 3);
  expect(order.map((e) => `${e.orgName}${e.key.sk.slice(-1)}`)).toEqual(['z7', 'x0', 'y9', 'x1', 'x2']);
  expect(capped).toBe(true);
  expect(fairOrder(entries, 10).capped).toBe(false);
  expect(fairOrder([], 10)).toEqual({ order: [], capped: false });
});

const stored = async (orgName: string, n: number): Promise<Knap[]> => {
  const { schedule_info } = describeSchedule('every minute', { now: new Date('2026-11-30T08:00:00Z') });
  const knaps: Knap[] = Array.from({ length: n }, (_, index) => ({
    uuid: randomUUID(),
    name: `${orgName} ${index}`,
    creation_user_id: 1,
    schedule_type: 'scheduled',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { schedule_description: 'every minute' },
    creation_timestamp: '2026-11-30T08:00:00Z',
    updated_at: '2026-11-30T08:00:00Z',
    schedule_info,
    next_run_at: DUE,
  }));
  const { repo } = table.deps(clock);
  for (let start = 0; start < knaps.length; start += 50) {
    await Promise.all(
      knaps.slice(start, start + 50).map((knap) => repo.putKnap(knap, { orgName, creatorClientId: 'knap_ci_f' })),
    );
  }
  return knaps;
};

test("one organization's 450 due Knaps: another's one is among the first queued; every Knap runs once", async () => {
  const hot = await stored('hot-org', 450);
  const [quiet] = await stored('quiet-org', 1);
  const deps = table.deps(clock);
  const result = await dispatchDueRuns(deps);
  expect(result.created).toBe(451);
  const queued = deps.deliveries.queued.map((item) => item.runId);
  expect(new Set(queued).size).toBe(451);
  // Round-robin: the quiet organization's run is in the first chunk dispatched (all at once), not behind 450.
  expect(queued.indexOf(runId.scheduled((quiet as Knap).uuid, DUE))).toBeLessThan(100);
  // More than one round: the hot organization had PER_ORG_PER_ROUND per round, then the rest.
  expect(hot.length).toBeGreaterThan(PER_ORG_PER_ROUND);
  for (const knap of hot) expect(queued).toContain(runId.scheduled(knap.uuid, DUE));
});
