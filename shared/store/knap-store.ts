/**
 * Knaps: the items, a creator's and an organization's listings (gsi1, gsi2), and in gsi3 the
 * due index the dispatcher reads and the meeting index meeting reports read. Every change is
 * one conditional write on the Knap's version, index entries included. Key design: keys.ts;
 * item shapes: items.ts.
 */
import type { Knap, KnapOwnership, KnapPage, StoredKnap } from '../domain/knaps.js';
import { type DueEntry, InvalidCursorError, type PageRequest, type ScheduleRrule } from '../domain/repository.js';
import type { MeetingKnapsPage, MeetingKnapsViewer } from '../domain/runs.js';
import {
  DeleteCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  ScanCommand,
  type ScanCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from './commands.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { dueIndexEntry, itemToKnap, itemToStoredKnap, knapToItem, meetingIndexEntry } from './items.js';
import { key, knapIndexCursor, meetingIndexCursor } from './keys.js';
import { type Item, type TableOps, unlessConditionFails } from './table-ops.js';

export class KnapStore {
  constructor(private readonly table: TableOps) {}

  private get db() {
    return this.table.db;
  }

  private get tableName() {
    return this.table.tableName;
  }

  putKnap(knap: Knap, ownership: KnapOwnership): Promise<boolean> {
    return this.table.putNew(knapToItem(knap, ownership));
  }

  async getKnap(orgName: string, uuid: string): Promise<StoredKnap | null> {
    const item = await this.table.getItem(key.knap(orgName, uuid));
    return item ? itemToStoredKnap(item) : null;
  }

  listKnapsByCreator(clientId: string, page: PageRequest): Promise<KnapPage> {
    return this.knapPage('gsi1', key.creatorKnaps(clientId), page);
  }

  listSharedKnaps(orgName: string, page: PageRequest): Promise<KnapPage> {
    return this.knapPage('gsi2', key.sharedKnaps(orgName), page);
  }

  /**
   * Every Knap of an organization, private ones included (an admin's listing): the Knaps are
   * the items of the organization's partition whose sort key starts `KNAP#`, so one Query
   * reads a page of them (by uuid) and nothing else.
   */
  async listOrgKnaps(orgName: string, page: PageRequest): Promise<{ knaps: StoredKnap[]; next: string | null }> {
    const partition = key.knap(orgName, '').pk;
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :knap)',
        ExpressionAttributeValues: { ':pk': partition, ':knap': KNAP_SK_PREFIX },
        Limit: page.limit,
        // A cursor of this organization's Knaps only: another partition's is refused.
        ExclusiveStartKey: decodeCursor(page.cursor, {
          pk: (value) => value === partition,
          sk: (value) => value.startsWith(KNAP_SK_PREFIX),
        }),
      }),
    );
    return { knaps: (result.Items ?? []).map(itemToStoredKnap), next: encodeCursor(result.LastEvaluatedKey) };
  }

  /**
   * The active after-meeting Knaps a client sees, from the meeting index alone (gsi3, keys
   * only): its private ones, then its organization's shared ones. No filter: every entry read
   * is a Knap listed, and no other Knap is read.
   */
  async listMeetingKnaps(viewer: MeetingKnapsViewer, page: PageRequest): Promise<MeetingKnapsPage> {
    let at: MeetingListing | null = decodeMeetingCursor(page.cursor, viewer);
    const uuids: string[] = [];
    while (at && uuids.length < page.limit) {
      const result: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          ...meetingQuery(this.tableName, at.phase, viewer),
          Limit: page.limit - uuids.length,
          ExclusiveStartKey: at.key,
        }),
      );
      for (const item of result.Items ?? []) uuids.push(String(item.sk).slice(KNAP_SK_PREFIX.length));
      at = nextMeetingPosition(at.phase, result.LastEvaluatedKey);
    }
    return { uuids, next: at ? encodeMeetingCursor(at) : null };
  }

  async countMeetingKnaps(viewer: MeetingKnapsViewer, cursor: string): Promise<number> {
    let at: MeetingListing | null = decodeMeetingCursor(cursor, viewer);
    let count = 0;
    while (at) {
      const result: QueryCommandOutput = await this.db.send(
        new QueryCommand({ Select: 'COUNT', ...meetingQuery(this.tableName, at.phase, viewer), ExclusiveStartKey: at.key }),
      );
      count += result.Count ?? 0;
      at = nextMeetingPosition(at.phase, result.LastEvaluatedKey);
    }
    return count;
  }

  async replaceKnap(knap: Knap, ownership: KnapOwnership, expectedVersion: number): Promise<boolean> {
    return this.ifStillAt(expectedVersion, (condition) =>
      this.db.send(
        new PutCommand({ TableName: this.tableName, Item: knapToItem(knap, ownership, expectedVersion + 1), ...condition }),
      ),
    );
  }

  async deleteKnap(orgName: string, uuid: string, expectedVersion: number): Promise<boolean> {
    return this.ifStillAt(expectedVersion, (condition) =>
      this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key.knap(orgName, uuid), ...condition })),
    );
  }

  /** Runs a write under "the Knap exists at this version" (version 0: written before versions existed). */
  private async ifStillAt(
    version: number,
    write: (condition: { ConditionExpression: string; ExpressionAttributeValues?: Item }) => Promise<unknown>,
  ): Promise<boolean> {
    const written = write(
      version === 0
        ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(version)' }
        : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': version } },
    );
    return (await unlessConditionFails(written)) !== null;
  }

  async dueKnaps(shard: number, now: string, limit: number): Promise<StoredKnap[]> {
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi3',
        // '~' sorts after every '#<uuid>': everything due at or before `now`.
        KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk <= :now',
        ExpressionAttributeValues: { ':shard': key.due(shard), ':now': `${now}~` },
        Limit: limit,
      }),
    );
    const keys = (result.Items ?? []).map(({ pk, sk }) => ({ pk, sk }));
    // The index is eventually consistent: the items themselves say what is due now.
    return (await this.table.batchGet(keys))
      .map(itemToStoredKnap)
      .sort((a, b) => (a.knap.next_run_at ?? '').localeCompare(b.knap.next_run_at ?? ''));
  }

  async dueEntries(shard: number, now: string, limit: number): Promise<DueEntry[]> {
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk <= :now',
        ExpressionAttributeValues: { ':shard': key.due(shard), ':now': `${now}~` },
        Limit: limit,
      }),
    );
    // Keys only: the Knap's own key names its organization (`ORG#<org>`), its index key the due time.
    return (result.Items ?? []).map(({ pk, sk, gsi3sk }) => ({
      key: { pk: String(pk), sk: String(sk) },
      orgName: String(pk).slice('ORG#'.length),
      nextRunAt: String(gsi3sk).split('#')[0] ?? '',
    }));
  }

  async knapsByKeys(keys: readonly DueEntry['key'][]): Promise<StoredKnap[]> {
    return (await this.table.batchGet([...keys])).map(itemToStoredKnap);
  }

  async dueSummary(shard: number, now: string, limit: number): Promise<{ due: number; oldest: string | null }> {
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk <= :now',
        ExpressionAttributeValues: { ':shard': key.due(shard), ':now': `${now}~` },
        // Only the sort key comes back: `<next_run_at>#<uuid>`, soonest first.
        ProjectionExpression: 'gsi3sk',
        Limit: limit,
      }),
    );
    const items = result.Items ?? [];
    const first = items[0]?.gsi3sk;
    return { due: items.length, oldest: typeof first === 'string' ? (first.split('#')[0] ?? null) : null };
  }

  async claimOccurrence(stored: StoredKnap, next: string | null): Promise<boolean> {
    const { knap, ownership, version } = stored;
    // An ended schedule has no next occurrence: the Knap leaves the due index (as an inactive one has none).
    const move =
      next === null
        ? { UpdateExpression: 'SET next_run_at = :next, version = :claimedVersion REMOVE gsi3pk, gsi3sk', due: {} }
        : {
            UpdateExpression: 'SET next_run_at = :next, gsi3sk = :due, version = :claimedVersion',
            due: { ':due': `${next}#${knap.uuid}` },
          };
    return this.ifStillAt(version, (condition) =>
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.knap(ownership.orgName, knap.uuid),
          UpdateExpression: move.UpdateExpression,
          ...condition,
          ExpressionAttributeValues: {
            ...condition.ExpressionAttributeValues,
            ':next': next,
            ...move.due,
            ':claimedVersion': version + 1,
          },
        }),
      ),
    );
  }

  /** The names of an organization's Knaps by uuid (one BatchGetItem a hundred); a Knap gone is left out. */
  async knapNames(orgName: string, uuids: readonly string[]): Promise<Map<string, string>> {
    const items = await this.table.batchGet(
      uuids.map((uuid) => key.knap(orgName, uuid)),
      { ProjectionExpression: '#uuid, #name', ExpressionAttributeNames: { '#uuid': 'uuid', '#name': 'name' } },
    );
    return new Map(items.map((item) => [String(item.uuid), String(item.name)]));
  }

  backfillScheduleRrules(rruleOf: ScheduleRrule): Promise<number> {
    return this.backfill(
      {
        FilterExpression:
          '#type = :knap AND schedule_type = :scheduled AND is_active = :true AND attribute_type(schedule_info, :map) AND attribute_not_exists(schedule_info.rrule)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':knap': 'knap', ':scheduled': 'scheduled', ':true': true, ':map': 'M' },
      },
      (item) => {
        const info = itemToKnap(item).schedule_info;
        if (!info) return null;
        const next = typeof item.next_run_at === 'string' ? item.next_run_at : null;
        return {
          UpdateExpression: 'SET schedule_info.rrule = :rrule',
          // Only if nothing changed it since the scan: a PATCH or a claim writes its own.
          ConditionExpression:
            next === null
              ? 'attribute_not_exists(schedule_info.rrule) AND attribute_type(next_run_at, :null)'
              : 'attribute_not_exists(schedule_info.rrule) AND next_run_at = :next',
          ExpressionAttributeValues:
            next === null ? { ':rrule': rruleOf(info, null), ':null': 'NULL' } : { ':rrule': rruleOf(info, next), ':next': next },
        };
      },
    );
  }

  backfillDueIndex(): Promise<number> {
    return this.backfill(
      {
        FilterExpression:
          '#type = :knap AND schedule_type = :scheduled AND is_active = :true AND attribute_exists(next_run_at) AND attribute_not_exists(gsi3pk)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':knap': 'knap', ':scheduled': 'scheduled', ':true': true },
      },
      (item) => {
        const entry = dueIndexEntry(itemToKnap(item));
        if (!entry.gsi3pk) return null;
        return {
          UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
          // Only if nothing changed it since the scan: a PATCH or a claim writes the entry itself.
          ConditionExpression: 'attribute_not_exists(gsi3pk) AND next_run_at = :next',
          ExpressionAttributeValues: { ':pk': entry.gsi3pk, ':sk': entry.gsi3sk, ':next': item.next_run_at },
        };
      },
    );
  }

  backfillMeetingIndex(): Promise<number> {
    return this.backfill(
      {
        FilterExpression: '#type = :knap AND schedule_type = :meeting AND is_active = :true AND attribute_not_exists(gsi3pk)',
        // The entry's inputs only: the Knap's tool_metadata (up to hundreds of KB) stays on the table.
        ProjectionExpression:
          'pk, sk, #uuid, schedule_type, is_active, visibility, creation_timestamp, org_name, creator_client_id, version',
        ExpressionAttributeNames: { '#type': 'type', '#uuid': 'uuid' },
        ExpressionAttributeValues: { ':knap': 'knap', ':meeting': 'post_meeting_transcription', ':true': true },
      },
      (item) => {
        const entry = meetingIndexEntry(
          {
            uuid: String(item.uuid),
            schedule_type: 'post_meeting_transcription',
            is_active: true,
            visibility: String(item.visibility),
            creation_timestamp: String(item.creation_timestamp),
          },
          { orgName: String(item.org_name), creatorClientId: String(item.creator_client_id) },
        );
        // Only if nothing changed the Knap since the scan (a PATCH, an activation, a delete):
        // each of those writes its own entry, or none.
        const unchanged =
          typeof item.version === 'number'
            ? {
                ConditionExpression: 'attribute_not_exists(gsi3pk) AND version = :version',
                version: { ':version': item.version },
              }
            : {
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi3pk) AND attribute_not_exists(version)',
                version: {},
              };
        return {
          UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
          ConditionExpression: unchanged.ConditionExpression,
          ExpressionAttributeValues: { ':pk': entry.gsi3pk, ':sk': entry.gsi3sk, ...unchanged.version },
        };
      },
    );
  }

  /**
   * One walk of the table for a migration step: each Knap item the scan keeps is given to
   * `write`, which says the update to make (conditional on the item being as the scan saw it),
   * or null to leave the item; returns how many updates held. Idempotent as its steps are.
   */
  private async backfill(
    scan: Omit<ScanCommandInput, 'TableName' | 'ExclusiveStartKey'>,
    write: (item: Item) => Omit<UpdateCommandInput, 'TableName' | 'Key'> | null,
  ): Promise<number> {
    let added = 0;
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(new ScanCommand({ TableName: this.tableName, ...scan, ExclusiveStartKey: startKey }));
      for (const item of page.Items ?? []) {
        const update = write(item);
        if (!update) continue;
        const written = await unlessConditionFails(
          this.db.send(new UpdateCommand({ TableName: this.tableName, Key: { pk: item.pk, sk: item.sk }, ...update })),
        );
        if (written) added += 1;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return added;
  }

  private async knapPage(index: 'gsi1' | 'gsi2', partition: string, page: PageRequest): Promise<KnapPage> {
    const partitionName = `${index}pk`;
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: index,
        KeyConditionExpression: `${partitionName} = :pk`,
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: page.limit,
        ExclusiveStartKey: decodeCursor(page.cursor, knapIndexCursor(index, partition)),
      }),
    );
    const items = result.Items ?? [];
    return {
      knaps: items.map(itemToKnap),
      creators: items.map((item) => String(item.creator_client_id)),
      next: encodeCursor(result.LastEvaluatedKey),
    };
  }
}

/**
 * The after-meeting Knaps a client sees, as one listing in two phases of the meeting index
 * (gsi3): its private ones (`MEETING#CREATOR#<client>`), then its organization's shared ones
 * (`MEETING#ORG#<org>`, its own shared ones included). A Knap has one meeting entry, so it
 * comes once. Newest first in each phase.
 */
type MeetingPhase = 'own' | 'shared';
interface MeetingListing {
  phase: MeetingPhase;
  /** Where the phase's query resumes; absent at its start. */
  key?: Item;
}

const KNAP_SK_PREFIX = 'KNAP#';

/** The cursor's version: 2 since the meeting index; cursors without one listed gsi1 and gsi2. */
const MEETING_CURSOR_VERSION = 2;

const meetingPartition = (phase: MeetingPhase, viewer: MeetingKnapsViewer): string =>
  phase === 'own' ? key.creatorMeetingKnaps(viewer.clientId) : key.orgMeetingKnaps(viewer.orgName);

const meetingQuery = (tableName: string, phase: MeetingPhase, viewer: MeetingKnapsViewer) => ({
  TableName: tableName,
  IndexName: 'gsi3',
  KeyConditionExpression: 'gsi3pk = :pk',
  ExpressionAttributeValues: { ':pk': meetingPartition(phase, viewer) },
  ScanIndexForward: false,
});

/** After a query: on in the same phase, on to the shared phase, or the end. */
const nextMeetingPosition = (phase: MeetingPhase, lastKey: Item | undefined): MeetingListing | null =>
  lastKey ? { phase, key: lastKey } : phase === 'own' ? { phase: 'shared' } : null;

/** `{"v": 2, "phase", "key"}`, base64url JSON; the key is checked as the phase's partition cursor. */
const encodeMeetingCursor = (at: MeetingListing): string =>
  Buffer.from(JSON.stringify({ v: MEETING_CURSOR_VERSION, phase: at.phase, key: encodeCursor(at.key) }), 'utf8').toString(
    'base64url',
  );

const decodeMeetingCursor = (cursor: string | undefined, viewer: MeetingKnapsViewer): MeetingListing => {
  if (cursor === undefined) return { phase: 'own' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  const { v: version, phase, key: position } = (decoded ?? {}) as { v?: unknown; phase?: unknown; key?: unknown };
  if (phase !== 'own' && phase !== 'shared') throw new InvalidCursorError();
  if (position !== null && typeof position !== 'string') throw new InvalidCursorError();
  if (version === MEETING_CURSOR_VERSION) {
    return position === null
      ? { phase }
      : { phase, key: decodeCursor(position, meetingIndexCursor(meetingPartition(phase, viewer))) };
  }
  if (version !== undefined) throw new InvalidCursorError();
  // A cursor of the listing before the meeting index (queued by a report before the deploy):
  // checked as it was, then the listing starts over. Runs are made once per Knap and meeting,
  // so the Knaps of pages already done find their runs and make nothing.
  if (position !== null) decodeCursor(position, legacyMeetingCursor(phase, viewer));
  return { phase: 'own' };
};

const legacyMeetingCursor = (phase: MeetingPhase, viewer: MeetingKnapsViewer) =>
  phase === 'own'
    ? knapIndexCursor('gsi1', key.creatorKnaps(viewer.clientId))
    : knapIndexCursor('gsi2', key.sharedKnaps(viewer.orgName));
