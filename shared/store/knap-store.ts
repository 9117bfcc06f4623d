/**
 * Knaps: the items, a creator's and an organization's listings (gsi1, gsi2), the after-meeting
 * listing, and the due index the dispatcher reads (gsi3). Every change is one conditional write
 * on the Knap's version. Key design: keys.ts; item shapes: items.ts.
 */
import type { Knap, KnapOwnership, KnapPage, StoredKnap } from '../domain/knaps.js';
import { InvalidCursorError, type PageRequest, type ScheduleRrule } from '../domain/repository.js';
import type { MeetingKnapsPage, MeetingKnapsViewer } from '../domain/runs.js';
import { DeleteCommand, PutCommand, QueryCommand, type QueryCommandOutput, ScanCommand, UpdateCommand } from './commands.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { dueIndexEntry, itemToKnap, itemToStoredKnap, knapToItem } from './items.js';
import { key, knapIndexCursor } from './keys.js';
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

  async listMeetingKnaps(viewer: MeetingKnapsViewer, page: PageRequest): Promise<MeetingKnapsPage> {
    let at: MeetingListing | null = decodeMeetingCursor(page.cursor, viewer);
    const knaps: Knap[] = [];
    while (at && knaps.length < page.limit) {
      const { index, partition } = meetingPhase(at.phase, viewer);
      const result: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          ...meetingQuery(this.tableName, at.phase, viewer),
          Limit: MEETING_QUERY_LIMIT,
          ExclusiveStartKey: at.key,
        }),
      );
      const items = result.Items ?? [];
      const room = page.limit - knaps.length;
      if (items.length > room) {
        // Resume right after the last Knap taken: its keys are the listing's position.
        const last = items[room - 1] as Item;
        knaps.push(...items.slice(0, room).map(itemToKnap));
        const position = { pk: last.pk, sk: last.sk, [`${index}pk`]: partition, [`${index}sk`]: last[`${index}sk`] };
        return { knaps, next: encodeMeetingCursor({ phase: at.phase, key: position as Item }) };
      }
      knaps.push(...items.map(itemToKnap));
      at = result.LastEvaluatedKey
        ? { phase: at.phase, key: result.LastEvaluatedKey }
        : at.phase === 'own'
          ? { phase: 'shared' }
          : null;
    }
    return { knaps, next: at ? encodeMeetingCursor(at) : null };
  }

  async countMeetingKnaps(viewer: MeetingKnapsViewer, cursor: string): Promise<number> {
    let at: MeetingListing | null = decodeMeetingCursor(cursor, viewer);
    let count = 0;
    while (at) {
      const result: QueryCommandOutput = await this.db.send(
        new QueryCommand({ Select: 'COUNT', ...meetingQuery(this.tableName, at.phase, viewer), ExclusiveStartKey: at.key }),
      );
      count += result.Count ?? 0;
      at = result.LastEvaluatedKey
        ? { phase: at.phase, key: result.LastEvaluatedKey }
        : at.phase === 'own'
          ? { phase: 'shared' }
          : null;
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

  async backfillScheduleRrules(rruleOf: ScheduleRrule): Promise<number> {
    let added = 0;
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression:
            '#type = :knap AND schedule_type = :scheduled AND is_active = :true AND attribute_type(schedule_info, :map) AND attribute_not_exists(schedule_info.rrule)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':knap': 'knap', ':scheduled': 'scheduled', ':true': true, ':map': 'M' },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const knap = itemToKnap(item);
        if (!knap.schedule_info) continue;
        const next = typeof item.next_run_at === 'string' ? item.next_run_at : null;
        const written = await unlessConditionFails(
          this.db.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: 'SET schedule_info.rrule = :rrule',
              // Only if nothing changed it since the scan: a PATCH or a claim writes its own.
              ConditionExpression:
                next === null
                  ? 'attribute_not_exists(schedule_info.rrule) AND attribute_type(next_run_at, :null)'
                  : 'attribute_not_exists(schedule_info.rrule) AND next_run_at = :next',
              ExpressionAttributeValues:
                next === null
                  ? { ':rrule': rruleOf(knap.schedule_info, null), ':null': 'NULL' }
                  : { ':rrule': rruleOf(knap.schedule_info, next), ':next': next },
            }),
          ),
        );
        if (written) added += 1;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return added;
  }

  async backfillDueIndex(): Promise<number> {
    let added = 0;
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression:
            '#type = :knap AND schedule_type = :scheduled AND is_active = :true AND attribute_exists(next_run_at) AND attribute_not_exists(gsi3pk)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':knap': 'knap', ':scheduled': 'scheduled', ':true': true },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const entry = dueIndexEntry(itemToKnap(item));
        if (!entry.gsi3pk) continue;
        const written = await unlessConditionFails(
          this.db.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
              // Only if nothing changed it since the scan: a PATCH or a claim writes the entry itself.
              ConditionExpression: 'attribute_not_exists(gsi3pk) AND next_run_at = :next',
              ExpressionAttributeValues: { ':pk': entry.gsi3pk, ':sk': entry.gsi3sk, ':next': item.next_run_at },
            }),
          ),
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
    return { knaps: (result.Items ?? []).map(itemToKnap), next: encodeCursor(result.LastEvaluatedKey) };
  }
}

/**
 * The after-meeting Knaps a client sees, as one listing in two phases: those it created (the
 * creator index), then those its organization shares that it did not create (the shared
 * index), so a Knap it created and shares comes once. Items of other kinds are filtered out
 * by DynamoDB; a query reads at most MEETING_QUERY_LIMIT items.
 */
type MeetingPhase = 'own' | 'shared';
interface MeetingListing {
  phase: MeetingPhase;
  /** Where the phase's query resumes; absent at its start. */
  key?: Item;
}

const MEETING_QUERY_LIMIT = 500;

const meetingPhase = (phase: MeetingPhase, viewer: MeetingKnapsViewer) =>
  phase === 'own'
    ? { index: 'gsi1' as const, partition: key.creatorKnaps(viewer.clientId) }
    : { index: 'gsi2' as const, partition: key.sharedKnaps(viewer.orgName) };

const meetingQuery = (tableName: string, phase: MeetingPhase, viewer: MeetingKnapsViewer) => {
  const { index, partition } = meetingPhase(phase, viewer);
  return {
    TableName: tableName,
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    FilterExpression:
      phase === 'own' ? '#type = :type AND #active = :active' : '#type = :type AND #active = :active AND #creator <> :mine',
    ExpressionAttributeNames: {
      '#pk': `${index}pk`,
      '#type': 'schedule_type',
      '#active': 'is_active',
      ...(phase === 'shared' ? { '#creator': 'gsi1pk' } : {}),
    },
    ExpressionAttributeValues: {
      ':pk': partition,
      ':type': 'post_meeting_transcription',
      ':active': true,
      ...(phase === 'shared' ? { ':mine': key.creatorKnaps(viewer.clientId) } : {}),
    },
    ScanIndexForward: false,
  };
};

/** `{"phase", "key"}`, base64url JSON; the key is checked as the phase's index cursor. */
const encodeMeetingCursor = (at: MeetingListing): string =>
  Buffer.from(JSON.stringify({ phase: at.phase, key: encodeCursor(at.key) }), 'utf8').toString('base64url');

const decodeMeetingCursor = (cursor: string | undefined, viewer: MeetingKnapsViewer): MeetingListing => {
  if (cursor === undefined) return { phase: 'own' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  const { phase, key: position } = (decoded ?? {}) as { phase?: unknown; key?: unknown };
  if (phase !== 'own' && phase !== 'shared') throw new InvalidCursorError();
  if (position === null) return { phase };
  if (typeof position !== 'string') throw new InvalidCursorError();
  const { index, partition } = meetingPhase(phase, viewer);
  return { phase, key: decodeCursor(position, knapIndexCursor(index, partition)) };
};
