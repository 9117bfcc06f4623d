/**
 * The meeting index (shared/store/knap-store.ts, items.ts) on a real local DynamoDB: the
 * listing a meeting report pages through, what it reads, cursors of earlier versions, the
 * dispatcher's claim, and the `meeting-index` migration for Knaps stored before it existed.
 */
import { randomUUID } from 'node:crypto';
import type { Knap, KnapOwnership } from '../../shared/domain/knaps.js';
import type { Repository } from '../../shared/domain/repository.js';
import { MIGRATIONS, runMigrations } from '../../shared/services/migrations.js';
import { reportMeeting } from '../../shared/services/runs.js';
import { PutCommand, QueryCommand, UpdateCommand } from '../../shared/store/commands.js';
import type { DocumentSender } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { knapToItem } from '../../shared/store/items.js';
import { key } from '../../shared/store/keys.js';
import { putTestKnap } from '../support/deliveries.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

const repo = () => table.deps().repo;
const meeting = (knap: Partial<Knap> = {}): Partial<Knap> => ({ schedule_type: 'post_meeting_transcription', ...knap });

/** Every uuid of the listing, a page of `limit` at a time; and how many pages. */
const listAll = async (store: Repository, viewer: { clientId: string; orgName: string }, limit: number) => {
  const uuids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await store.listMeetingKnaps(viewer, { limit, ...(cursor ? { cursor } : {}) });
    uuids.push(...page.uuids);
    cursor = page.next ?? undefined;
    pages += 1;
  } while (cursor && pages < 100);
  return { uuids, pages };
};

/** A store whose every Query answer is recorded: how many items DynamoDB read to answer it. */
const recordingStore = () => {
  const scanned: number[] = [];
  const sender: DocumentSender = {
    send: async (command) => {
      const output = await table.documents.send(command);
      const counted = output as { ScannedCount?: number };
      if (command instanceof QueryCommand) scanned.push(counted.ScannedCount ?? 0);
      return output;
    },
  };
  return { store: new DynamoRepository(sender, table.tableName), scanned };
};

test('the listing: own private Knaps, then the organization’s shared ones, each once, paged, reading nothing else', async () => {
  const org = 'listing';
  const me: KnapOwnership = { orgName: org, creatorClientId: 'knap_ci_listing_me' };
  const colleague: KnapOwnership = { orgName: org, creatorClientId: 'knap_ci_listing_colleague' };
  const viewer = { clientId: me.creatorClientId, orgName: org };
  const own = [(await putTestKnap(repo(), me, meeting())).uuid, (await putTestKnap(repo(), me, meeting())).uuid];
  const shared = [
    (await putTestKnap(repo(), me, meeting({ visibility: org }))).uuid,
    (await putTestKnap(repo(), colleague, meeting({ visibility: 'public' }))).uuid,
  ];
  await putTestKnap(repo(), colleague, meeting());
  await putTestKnap(repo(), me, meeting({ is_active: false, visibility: org }));
  await putTestKnap(repo(), { orgName: 'listing-elsewhere', creatorClientId: 'knap_ci_x' }, meeting({ visibility: 'public' }));
  for (let index = 0; index < 25; index += 1) await putTestKnap(repo(), me, { visibility: org });

  const { store, scanned } = recordingStore();
  const all = await listAll(store, viewer, 100);
  expect(all.uuids.slice(0, 2).sort()).toEqual([...own].sort());
  expect(all.uuids.slice(2).sort()).toEqual([...shared].sort());
  // Every item DynamoDB read was a Knap listed: the 25 manual Knaps and the inactive one cost nothing.
  expect(scanned.reduce((sum, count) => sum + count, 0)).toBe(4);

  const paged = await listAll(repo(), viewer, 1);
  expect(paged.uuids).toEqual(all.uuids);
  const first = await repo().listMeetingKnaps(viewer, { limit: 1 });
  expect(await repo().countMeetingKnaps(viewer, first.next as string)).toBe(3);
});

test('cursors: one of the listing before the meeting index starts over; an edited or another client’s is refused', async () => {
  const org = 'cursors';
  const me: KnapOwnership = { orgName: org, creatorClientId: 'knap_ci_cursors_me' };
  const viewer = { clientId: me.creatorClientId, orgName: org };
  const uuids = [
    (await putTestKnap(repo(), me, meeting())).uuid,
    (await putTestKnap(repo(), me, meeting({ visibility: org }))).uuid,
  ];
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

  // As the version before wrote it into a queued fan-out message: the phase and a gsi2 position.
  const position = encode({
    pk: `ORG#${org}`,
    sk: `KNAP#${uuids[1]}`,
    gsi2pk: key.sharedKnaps(org),
    gsi2sk: `2026-11-01T00:00:00Z#${uuids[1]}`,
  });
  const legacy = encode({ phase: 'shared', key: position });
  expect((await repo().listMeetingKnaps(viewer, { limit: 10, cursor: legacy })).uuids.sort()).toEqual([...uuids].sort());
  expect(
    (await repo().listMeetingKnaps(viewer, { limit: 10, cursor: encode({ phase: 'shared', key: null }) })).uuids,
  ).toHaveLength(2);

  const first = await repo().listMeetingKnaps(viewer, { limit: 1 });
  const other = { clientId: 'knap_ci_cursors_other', orgName: org };
  const refused = [
    encode({ phase: 'shared', key: encode({ pk: 'ORG#x', sk: 'KNAP#y', gsi2pk: 'ORG#other#SHARED', gsi2sk: 'z' }) }),
    encode({ v: 3, phase: 'own', key: null }),
    encode({ v: 2, phase: 'mine', key: null }),
    'not base64 json',
  ];
  for (const cursor of refused)
    await expect(repo().listMeetingKnaps(viewer, { limit: 1, cursor })).rejects.toThrow('Invalid cursor');
  // The first page ended inside the caller's own partition: another client cannot follow it.
  await expect(repo().listMeetingKnaps(other, { limit: 1, cursor: first.next as string })).rejects.toThrow('Invalid cursor');
});

test('the dispatcher’s claim leaves a scheduled Knap out of the meeting index; a PATCH to after-meeting puts it in', async () => {
  const org = 'claims';
  const me: KnapOwnership = { orgName: org, creatorClientId: 'knap_ci_claims' };
  const viewer = { clientId: me.creatorClientId, orgName: org };
  const knap = await putTestKnap(repo(), me, {
    schedule_type: 'scheduled',
    schedule_info: { rrule: 'FREQ=DAILY', timezone: 'UTC' } as unknown as Knap['schedule_info'],
    next_run_at: '2030-01-01T09:00:00Z',
  });
  const stored = await repo().getKnap(org, knap.uuid);
  expect(await repo().claimOccurrence(stored!, '2030-01-02T09:00:00Z')).toBe(true);
  expect((await repo().listMeetingKnaps(viewer, { limit: 10 })).uuids).toEqual([]);
  const claimed = await repo().getKnap(org, knap.uuid);
  const changed: Knap = { ...claimed!.knap, schedule_type: 'post_meeting_transcription', schedule_info: null, next_run_at: null };
  expect(await repo().replaceKnap(changed, me, claimed!.version)).toBe(true);
  expect((await repo().listMeetingKnaps(viewer, { limit: 10 })).uuids).toEqual([knap.uuid]);
  // The claim of the version before fails: it cannot move the Knap's gsi3 entry.
  expect(await repo().claimOccurrence(claimed!, '2030-01-03T09:00:00Z')).toBe(false);
  expect((await table.item(key.knap(org, knap.uuid)))?.gsi3pk).toBe(key.creatorMeetingKnaps(me.creatorClientId));
});

/** A Knap item as versions before the meeting index wrote it: no gsi3 entry (and, for the oldest, no version). */
const putEarlierKnap = async (ownership: KnapOwnership, fields: Partial<Knap>, withVersion = true) => {
  const now = '2026-10-01T08:00:00Z';
  const knap: Knap = {
    uuid: randomUUID(),
    name: 'Earlier',
    creation_user_id: 1,
    schedule_type: 'post_meeting_transcription',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { action_description: 'x' },
    creation_timestamp: now,
    updated_at: now,
    schedule_info: null,
    next_run_at: null,
    ...fields,
  };
  const { gsi3pk: _pk, gsi3sk: _sk, version, ...item } = knapToItem(knap, ownership);
  await table.documents.send(new PutCommand({ TableName: table.tableName, Item: withVersion ? { ...item, version } : item }));
  return knap;
};

test('migrate: Knaps stored before the meeting index run after the `meeting-index` step, which is idempotent', async () => {
  const org = 'migrate';
  const me: KnapOwnership = { orgName: org, creatorClientId: 'knap_ci_migrate_me' };
  const colleague: KnapOwnership = { orgName: org, creatorClientId: 'knap_ci_migrate_colleague' };
  const privateOne = await putEarlierKnap(me, {});
  const sharedOne = await putEarlierKnap(colleague, { visibility: 'public' }, false);
  await putEarlierKnap(me, { is_active: false });
  await putEarlierKnap(me, { schedule_type: 'manual' });
  const deps = table.deps();
  const caller = { client: { clientId: me.creatorClientId, orgName: org } } as Parameters<typeof reportMeeting>[1];
  const report = async (meetingId: string) =>
    (await reportMeeting(deps, caller, { meeting_id: meetingId })).runs.map((run) => run.knap_uuid).sort();

  expect(await report('before')).toEqual([]);
  expect(MIGRATIONS.map((step) => step.id)).toContain('meeting-index');
  const step = MIGRATIONS.filter((each) => each.id === 'meeting-index');
  expect(await runMigrations(deps, step)).toEqual([expect.objectContaining({ id: 'meeting-index', changed: { added: 2 } })]);
  expect(await runMigrations(deps, step)).toEqual([expect.objectContaining({ changed: { added: 0 } })]);
  expect(await report('after')).toEqual([privateOne.uuid, sharedOne.uuid].sort());
});

test('migrate never overwrites a change made between its scan and its write, nor brings back a deleted Knap', async () => {
  const org = 'migrate-race';
  const me: KnapOwnership = { orgName: org, creatorClientId: 'knap_ci_race' };
  const viewer = { clientId: me.creatorClientId, orgName: org };
  const versioned = await putEarlierKnap(me, {});
  const unversioned = await putEarlierKnap(me, { visibility: 'public' }, false);
  // Just before each of the migration's writes, the Knap changes: the versioned one is
  // deactivated by a PATCH (a put of version 2), the one of before versions is deleted.
  let interleaved = 0;
  const sender: DocumentSender = {
    send: async (command) => {
      const input = command.input as { UpdateExpression?: string; Key?: { sk?: string } };
      if (command instanceof UpdateCommand && input.UpdateExpression === 'SET gsi3pk = :pk, gsi3sk = :sk') {
        interleaved += 1;
        if (input.Key?.sk === `KNAP#${versioned.uuid}`) {
          const stored = await repo().getKnap(org, versioned.uuid);
          expect(await repo().replaceKnap({ ...stored!.knap, is_active: false }, me, stored!.version)).toBe(true);
        } else {
          expect(await repo().deleteKnap(org, unversioned.uuid, 0)).toBe(true);
        }
      }
      return table.documents.send(command);
    },
  };
  const racing = new DynamoRepository(sender, table.tableName);
  expect(await racing.backfillMeetingIndex()).toBe(0);
  expect(interleaved).toBe(2);
  expect(await table.item(key.knap(org, unversioned.uuid))).toBeUndefined();
  const deactivated = await table.item(key.knap(org, versioned.uuid));
  expect(deactivated).toMatchObject({ is_active: false, version: 2 });
  expect(deactivated?.gsi3pk).toBeUndefined();
  expect((await repo().listMeetingKnaps(viewer, { limit: 10 })).uuids).toEqual([]);
});
