/**
 * The Repository port over DynamoDB (key design: keys.ts; item shapes: items.ts).
 *
 * Every write is a single-item conditional write: no transactions (dynalite has none) and
 * nothing half-written.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AdminAccount } from '../domain/admins.js';
import type { AuditEvent, AuditPage } from '../domain/audit.js';
import type { ApiClient } from '../domain/clients.js';
import type { ClaimResult, IdempotencyRecord, StoredResponse } from '../domain/idempotency.js';
import type { Knap, KnapOwnership, KnapPage, StoredKnap } from '../domain/knaps.js';
import {
  type ClientChanges,
  type CountRequestInput,
  type CountRequestResult,
  InvalidCursorError,
  type PageRequest,
  type Repository,
  type RevocationMigration,
} from '../domain/repository.js';
import type { RequestScope } from '../domain/request-scope.js';
import type { ChainState, RunEvent, RunOutcome } from '../domain/run-events.js';
import type { MeetingKnapsPage, MeetingKnapsViewer, Run, RunStatus, StoredRun } from '../domain/runs.js';
import type { GrantRecord, TokenRecord, TokenStanding } from '../domain/tokens.js';
import type { DeliveryAttempt, WebhookEndpoint } from '../domain/webhooks.js';
import { AdminStore } from './admin-store.js';
import { ClientStore } from './client-store.js';
import { DeleteCommand, PutCommand, QueryCommand, type QueryCommandOutput, ScanCommand, UpdateCommand } from './commands.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { type DocumentSender, scopedDocuments } from './dynamo-client.js';
import { dueIndexEntry, itemToIdempotency, itemToKnap, itemToStoredKnap, knapToItem } from './items.js';
import { key, knapIndexCursor } from './keys.js';
import { RunEventStore } from './run-event-store.js';
import { type RedeliveryResult, RunStore } from './run-store.js';
import { type Item, TableOps, unlessConditionFails } from './table-ops.js';
import { WebhookStore } from './webhook-store.js';

export class DynamoRepository implements Repository {
  private readonly table: TableOps;
  private readonly clients: ClientStore;
  private readonly admins: AdminStore;
  private readonly runs: RunStore;
  private readonly webhooks: WebhookStore;
  private readonly runEvents: RunEventStore;

  constructor(
    private readonly db: DocumentSender,
    private readonly tableName: string,
  ) {
    this.table = new TableOps(db, tableName);
    this.clients = new ClientStore(this.table);
    this.admins = new AdminStore(this.table);
    this.runs = new RunStore(this.table);
    this.webhooks = new WebhookStore(this.table);
    this.runEvents = new RunEventStore(this.table);
  }

  within(scope: RequestScope): DynamoRepository {
    return new DynamoRepository(scopedDocuments(this.db, scope), this.tableName);
  }

  putNewClient(client: ApiClient): Promise<void> {
    return this.clients.putNewClient(client);
  }

  getClient(clientId: string): Promise<ApiClient | null> {
    return this.clients.getClient(clientId);
  }

  listClientsByOrg(orgName: string): Promise<ApiClient[]> {
    return this.clients.listClientsByOrg(orgName);
  }

  updateClient(
    clientId: string,
    changes: ClientChanges,
    now: string,
    onlyIf?: { orgName: string; active: boolean },
  ): Promise<ApiClient | null> {
    return this.clients.updateClient(clientId, changes, now, onlyIf);
  }

  countRequest(input: CountRequestInput): Promise<CountRequestResult> {
    return this.clients.countRequest(input);
  }

  refundRequest(clientId: string, window: number): Promise<void> {
    return this.clients.refundRequest(clientId, window);
  }

  putGrant(grant: GrantRecord): Promise<void> {
    return this.clients.putGrant(grant);
  }

  deleteGrant(grantKey: string): Promise<void> {
    return this.clients.deleteGrant(grantKey);
  }

  tokenStanding(query: { grantKey?: string; revocationIds: readonly string[] }): Promise<TokenStanding> {
    return this.clients.tokenStanding(query);
  }

  putRevocations(revocations: Readonly<Record<string, number>>): Promise<void> {
    return this.clients.putRevocations(revocations);
  }

  migrateClientRevocations(nowSeconds: number): Promise<RevocationMigration> {
    return this.clients.migrateClientRevocations(nowSeconds);
  }

  putTokens(records: TokenRecord[]): Promise<void> {
    return this.clients.putTokens(records);
  }

  getToken(tokenHash: string): Promise<TokenRecord | null> {
    return this.clients.getToken(tokenHash);
  }

  deleteTokens(tokenHashes: string[]): Promise<void> {
    return this.clients.deleteTokens(tokenHashes);
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

  async claimIdempotencyKey(record: Omit<IdempotencyRecord, 'state' | 'response'>, now: number): Promise<ClaimResult> {
    const itemKey = key.idempotency(record.clientId, record.key);
    try {
      const result = await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...itemKey,
            type: 'idempotency',
            client_id: record.clientId,
            idempotency_key: record.key,
            request_hash: record.requestHash,
            resource_id: record.resourceId,
            state: 'in_flight',
            expires_at: record.expiresAt,
            lease_until: record.leaseUntil,
          },
          ConditionExpression:
            'attribute_not_exists(pk) OR expires_at <= :now OR (request_hash = :hash AND (#state = :released OR (#state = :inFlight AND lease_until <= :now)))',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':now': now,
            ':hash': record.requestHash,
            ':released': 'released',
            ':inFlight': 'in_flight',
          },
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const earlier = result.Attributes;
      if (earlier && Number(earlier.expires_at) > now && typeof earlier.resource_id === 'string') {
        // A retry of a request that failed or went silent: create what it was creating.
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: itemKey,
            UpdateExpression: 'SET resource_id = :id',
            ExpressionAttributeValues: { ':id': earlier.resource_id },
          }),
        );
        return { claimed: true, resourceId: earlier.resource_id };
      }
      return { claimed: true, resourceId: record.resourceId };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // DynamoDB hands back the record that holds the key; an emulator that does not costs one read.
      const existing = error.Item ? unmarshall(error.Item) : await this.table.getItem(itemKey);
      // Gone between the two calls (expired and swept): claim again.
      if (!existing) return this.claimIdempotencyKey(record, now);
      return { claimed: false, existing: itemToIdempotency(existing) };
    }
  }

  async completeIdempotencyKey(clientId: string, idempotencyKey: string, requestHash: string, response: StoredResponse) {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key.idempotency(clientId, idempotencyKey),
        UpdateExpression: 'SET #state = :done, response_status = :status, response_headers = :headers, response_body = :body',
        ConditionExpression: 'request_hash = :hash',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':done': 'done',
          ':status': response.status,
          ':headers': response.headers,
          ':body': response.body,
          ':hash': requestHash,
        },
      }),
    );
  }

  async releaseIdempotencyKey(clientId: string, idempotencyKey: string, requestHash: string): Promise<void> {
    // A claim no longer in flight (completed, or taken over) is left as it is.
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.idempotency(clientId, idempotencyKey),
          UpdateExpression: 'SET #state = :released',
          ConditionExpression: '#state = :inFlight AND request_hash = :hash',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':inFlight': 'in_flight', ':released': 'released', ':hash': requestHash },
        }),
      ),
    );
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

  putRun(stored: StoredRun): Promise<boolean> {
    return this.runs.putRun(stored);
  }

  getRun(runId: string): Promise<StoredRun | null> {
    return this.runs.getRun(runId);
  }

  listRuns(knapUuid: string, page: PageRequest): Promise<{ runs: Run[]; next: string | null }> {
    return this.runs.listRuns(knapUuid, page);
  }

  listRunsByOrg(orgName: string, page: PageRequest): Promise<{ runs: StoredRun[]; next: string | null }> {
    return this.runs.listRunsByOrg(orgName, page);
  }

  recordDeliveryAttempt(runId: string, attempt: DeliveryAttempt, status: RunStatus): Promise<StoredRun | null> {
    return this.runs.recordDeliveryAttempt(runId, attempt, status);
  }

  redeliverRun(runId: string, orgName: string): Promise<RedeliveryResult> {
    return this.runs.redeliverRun(runId, orgName);
  }

  pendingRunIds(): Promise<string[]> {
    return this.runs.pendingRunIds();
  }

  backfillOrgRunsIndex(): Promise<number> {
    return this.runs.backfillOrgRunsIndex();
  }

  runChainHead(runId: string): Promise<ChainState> {
    return this.runEvents.chainHead(runId);
  }

  putRunEvent(runId: string, event: RunEvent, state: ChainState, expiresAt: number): Promise<boolean> {
    return this.runEvents.putEvent(runId, event, state, expiresAt);
  }

  runEventsAfter(runId: string, after: number, limit: number): Promise<{ events: RunEvent[]; state: ChainState | null }> {
    return this.runEvents.eventsAfter(runId, after, limit);
  }

  setRunOutcome(
    runId: string,
    outcome: RunOutcome,
    finished?: { at: string; output: unknown; error: string | null },
  ): Promise<boolean> {
    return this.runEvents.applyOutcome(runId, { outcome, finished });
  }

  meterRunReport(orgName: string, window: number, limit: number): Promise<boolean> {
    return this.runEvents.meterReport(orgName, window, limit);
  }

  claimStreamSlot(clientId: string, slots: number, nowMs: number, untilMs: number): Promise<number | null> {
    return this.runEvents.claimStreamSlot(clientId, slots, nowMs, untilMs);
  }

  releaseStreamSlot(clientId: string, slot: number, untilMs: number): Promise<void> {
    return this.runEvents.releaseStreamSlot(clientId, slot, untilMs);
  }

  putWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    return this.webhooks.putWebhookEndpoint(endpoint);
  }

  listWebhookEndpoints(orgName: string): Promise<WebhookEndpoint[]> {
    return this.webhooks.listWebhookEndpoints(orgName);
  }

  deleteWebhookEndpoint(endpointId: string, orgName?: string): Promise<WebhookEndpoint | null> {
    return this.webhooks.deleteWebhookEndpoint(endpointId, orgName);
  }

  putNewAdmin(admin: AdminAccount): Promise<boolean> {
    return this.admins.putNewAdmin(admin);
  }

  getAdmin(email: string): Promise<AdminAccount | null> {
    return this.admins.getAdmin(email);
  }

  putAuditEvent(event: AuditEvent): Promise<void> {
    return this.admins.putAuditEvent(event);
  }

  listAuditEvents(orgName: string, page: PageRequest): Promise<AuditPage> {
    return this.admins.listAuditEvents(orgName, page);
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
