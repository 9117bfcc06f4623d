/**
 * The Repository port over DynamoDB (key design: keys.ts; item shapes: items.ts).
 *
 * Every write is a single-item conditional write: no transactions (dynalite has none) and
 * nothing half-written.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';

/** One put or delete of a BatchWriteItem, as the document client takes it. */
type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ApiClient } from '../domain/clients.js';
import type { ClaimResult, IdempotencyRecord, StoredResponse } from '../domain/idempotency.js';
import type { Knap, KnapOwnership, KnapPage, StoredKnap } from '../domain/knaps.js';
import type {
  ClientChanges,
  CountRequestInput,
  CountRequestResult,
  PageRequest,
  Repository,
  RequestGuard,
} from '../domain/repository.js';
import type { Run, RunStatus, StoredRun } from '../domain/runs.js';
import type { TokenRecord } from '../domain/tokens.js';
import type { DeliveryAttempt, WebhookEndpoint } from '../domain/webhooks.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import {
  clientToItem,
  dueIndexEntry,
  type Item,
  itemToClient,
  itemToIdempotency,
  itemToKnap,
  itemToMetered,
  itemToRun,
  itemToStoredKnap,
  itemToStoredRun,
  itemToToken,
  itemToWebhook,
  knapToItem,
  runToItem,
  tokenToItem,
  webhookToItem,
} from './items.js';
import { key, knapIndexCursor, runsCursor } from './keys.js';

/**
 * Sends a batch until DynamoDB has processed all of it: under throttling BatchGetItem and
 * BatchWriteItem hand back what they left, which is retried with backoff, five tries in all.
 */
const untilProcessed = async <T>(batch: T[], operation: string, send: (pending: T[]) => Promise<T[]>): Promise<void> => {
  let pending = batch;
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt >= 5) throw new Error(`${operation} left ${pending.length} item(s) unprocessed`);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    pending = await send(pending);
  }
};

/**
 * A conditional write: its result, or null when its condition did not hold (nothing was
 * written). Any other error is thrown.
 */
const unlessConditionFails = async <T>(write: Promise<T>): Promise<T | null> => {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
};

const guardCondition = (guard: RequestGuard): { expression: string; values: Item; names: Record<string, string> } => {
  if ('secretHash' in guard) return { expression: 'secret_hash = :guard', values: { ':guard': guard.secretHash }, names: {} };
  const revocations = (guard.notRevoked ?? []).map((id, index) => [`#rv${index}`, key.revocation(id)] as const);
  return {
    expression: ['generation = :guard', ...revocations.map(([name]) => `attribute_not_exists(${name})`)].join(' AND '),
    values: { ':guard': guard.generation },
    names: Object.fromEntries(revocations),
  };
};

export class DynamoRepository implements Repository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async putNewClient(client: ApiClient): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: clientToItem(client),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getClient(clientId: string): Promise<ApiClient | null> {
    const item = await this.getItem(key.client(clientId));
    return item ? itemToClient(item) : null;
  }

  /** Keys from the keys-only index, then the items themselves, oldest client first. */
  async listClientsByOrg(orgName: string): Promise<ApiClient[]> {
    const keys = await this.queryAll({
      TableName: this.tableName,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': key.orgClients(orgName) },
    });
    const items = await this.batchGet(keys.map(({ pk, sk }) => ({ pk, sk })));
    const byPk = new Map(items.map((item) => [item.pk, item]));
    return keys.flatMap(({ pk }) => {
      const item = byPk.get(pk);
      return item ? [itemToClient(item)] : [];
    });
  }

  async updateClient(clientId: string, changes: ClientChanges, now: string): Promise<ApiClient | null> {
    const sets = ['updated_at = :now'];
    const removes: string[] = [];
    const values: Item = { ':now': now };
    if (changes.secretHash !== undefined) {
      sets.push('secret_hash = :secret');
      values[':secret'] = changes.secretHash;
    }
    if (changes.status !== undefined) {
      sets.push('#status = :status');
      values[':status'] = changes.status;
    }
    if (changes.rateLimit === null) removes.push('rate_limit');
    if (typeof changes.rateLimit === 'number') {
      sets.push('rate_limit = :limit');
      values[':limit'] = changes.rateLimit;
    }
    if (changes.bumpGeneration) {
      sets.push('generation = generation + :one');
      values[':one'] = 1;
    }
    const result = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(clientId),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: changes.status !== undefined ? { '#status': 'status' } : undefined,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return result?.Attributes ? itemToClient(result.Attributes) : null;
  }

  /**
   * One conditional UpdateItem that checks the client (active, secret or token generation),
   * counts the request against its rate limit and stamps `last_used_at`. When the condition
   * fails, the current item is returned (from the failure itself where DynamoDB sends it,
   * else by one GetItem) so the caller can tell why.
   */
  async countRequest(input: CountRequestInput): Promise<CountRequestResult> {
    const guard = guardCondition(input.guard);
    const open = input.mode === 'open';
    // No OR on the path every request takes: parsing one costs dynalite (and the bench) ~2 ms.
    const ownLimit = input.limit === 'own';
    const windowCondition = open
      ? '(attribute_not_exists(rl_window) OR rl_window < :window)'
      : ownLimit
        ? 'rl_window = :window AND rl_count < rate_limit'
        : 'rl_window = :window AND rl_count < :defaultLimit AND attribute_not_exists(rate_limit)';
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(input.clientId),
          UpdateExpression: open
            ? 'SET rl_window = :window, rl_count = :one, last_used_at = :now'
            : 'SET last_used_at = :now ADD rl_count :one',
          // `#status = :active` holds only for an item that exists: no attribute_exists(pk) needed.
          ConditionExpression: `#status = :active AND ${guard.expression} AND ${windowCondition}`,
          ExpressionAttributeNames: { '#status': 'status', ...guard.names },
          ExpressionAttributeValues: {
            ':active': 'active',
            ':window': input.window,
            ':one': 1,
            ':now': input.now,
            ...(open || ownLimit ? {} : { ':defaultLimit': input.defaultLimit }),
            ...guard.values,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { applied: true, state: itemToMetered(result.Attributes ?? {}) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const old = error.Item ? unmarshall(error.Item) : await this.getItem(key.client(input.clientId));
      return { applied: false, state: old ? itemToMetered(old) : null };
    }
  }

  async putTokens(records: TokenRecord[]): Promise<void> {
    await this.batchWrite(records.map((record) => ({ PutRequest: { Item: tokenToItem(record) } })));
  }

  async deleteTokens(tokenHashes: string[]): Promise<void> {
    await this.batchWrite(tokenHashes.map((tokenHash) => ({ DeleteRequest: { Key: key.token(tokenHash) } })));
  }

  async revokeOnClient(clientId: string, revocations: Record<string, number>, lapsed: readonly string[]): Promise<void> {
    const ids = Object.keys(revocations);
    const drop = lapsed.filter((id) => !ids.includes(id));
    if (ids.length === 0 && drop.length === 0) return;
    const names: Record<string, string> = {};
    const values: Item = {};
    const sets = ids.map((id, index) => {
      names[`#set${index}`] = key.revocation(id);
      values[`:until${index}`] = revocations[id];
      return `#set${index} = :until${index}`;
    });
    const removes = drop.map((id, index) => {
      names[`#drop${index}`] = key.revocation(id);
      return `#drop${index}`;
    });
    // A client deleted meanwhile stays deleted: nothing is written for it.
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(clientId),
          UpdateExpression: [
            sets.length > 0 ? `SET ${sets.join(', ')}` : '',
            removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join(' '),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: sets.length > 0 ? values : undefined,
        }),
      ),
    );
  }

  async putRevokedGrant(grantId: string, expiresAt: number): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...key.revokedGrant(grantId), type: 'revoked-grant', expires_at: expiresAt },
      }),
    );
  }

  async isGrantRevoked(grantId: string): Promise<boolean> {
    return (await this.getItem(key.revokedGrant(grantId))) !== null;
  }

  /** BatchWriteItem in chunks of 25, retrying what DynamoDB leaves unprocessed. */
  private async batchWrite(requests: WriteRequest[]): Promise<void> {
    for (let start = 0; start < requests.length; start += 25) {
      await untilProcessed(requests.slice(start, start + 25), 'BatchWriteItem', async (pending) => {
        const result = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
        return (result.UnprocessedItems?.[this.tableName] ?? []) as WriteRequest[];
      });
    }
  }

  async getToken(tokenHash: string): Promise<TokenRecord | null> {
    const item = await this.getItem(key.token(tokenHash));
    return item ? itemToToken(tokenHash, item) : null;
  }

  async putKnap(knap: Knap, ownership: KnapOwnership): Promise<boolean> {
    const put = this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: knapToItem(knap, ownership),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return (await unlessConditionFails(put)) !== null;
  }

  async getKnap(orgName: string, uuid: string): Promise<StoredKnap | null> {
    const item = await this.getItem(key.knap(orgName, uuid));
    return item ? itemToStoredKnap(item) : null;
  }

  listKnapsByCreator(clientId: string, page: PageRequest): Promise<KnapPage> {
    return this.knapPage('gsi1', key.creatorKnaps(clientId), page);
  }

  listSharedKnaps(orgName: string, page: PageRequest): Promise<KnapPage> {
    return this.knapPage('gsi2', key.sharedKnaps(orgName), page);
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
      const existing = error.Item ? unmarshall(error.Item) : await this.getItem(itemKey);
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
    return (await this.batchGet(keys))
      .map(itemToStoredKnap)
      .sort((a, b) => (a.knap.next_run_at ?? '').localeCompare(b.knap.next_run_at ?? ''));
  }

  async claimOccurrence(stored: StoredKnap, next: string): Promise<boolean> {
    const { knap, ownership, version } = stored;
    return this.ifStillAt(version, (condition) =>
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.knap(ownership.orgName, knap.uuid),
          UpdateExpression: 'SET next_run_at = :next, gsi3sk = :due, version = :claimedVersion',
          ...condition,
          ExpressionAttributeValues: {
            ...condition.ExpressionAttributeValues,
            ':next': next,
            ':due': `${next}#${knap.uuid}`,
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

  async putRun(stored: StoredRun): Promise<boolean> {
    const put = this.db.send(
      new PutCommand({ TableName: this.tableName, Item: runToItem(stored), ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return (await unlessConditionFails(put)) !== null;
  }

  async getRun(runId: string): Promise<StoredRun | null> {
    const item = await this.getItem(key.run(runId));
    return item ? itemToStoredRun(item) : null;
  }

  async listRuns(knapUuid: string, page: PageRequest): Promise<{ runs: Run[]; next: string | null }> {
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': key.knapRuns(knapUuid) },
        ScanIndexForward: false,
        Limit: page.limit,
        ExclusiveStartKey: decodeCursor(page.cursor, runsCursor(knapUuid)),
      }),
    );
    return { runs: (result.Items ?? []).map(itemToRun), next: encodeCursor(result.LastEvaluatedKey) };
  }

  async recordDeliveryAttempt(runId: string, attempt: DeliveryAttempt, status: RunStatus): Promise<StoredRun | null> {
    const written = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.run(runId),
          UpdateExpression:
            'SET attempts = attempts + :one, last_attempt_at = :at, last_attempt_id = :id, last_error = :error, #status = :status, delivered_to = list_append(delivered_to, :delivered)',
          // Not attribute_exists alone: two deliveries of one message must not both count.
          ConditionExpression: 'attribute_exists(pk) AND attempts = :before',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':before': attempt.number - 1,
            ':at': attempt.at,
            ':id': attempt.id,
            ':error': attempt.error,
            ':status': status,
            ':delivered': attempt.deliveredTo,
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (written?.Attributes) return itemToStoredRun(written.Attributes);
    // Refused: by another copy of the attempt, or by our own write, applied on a try of the
    // SDK whose answer was lost and refused on its retry. A second round trip, only then.
    const item = await this.getItem(key.run(runId));
    return item?.last_attempt_id === attempt.id ? itemToStoredRun(item) : null;
  }

  async pendingRunIds(): Promise<string[]> {
    const ids: string[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: '#type = :run AND #status = :pending',
          ProjectionExpression: 'run_id',
          ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
          ExpressionAttributeValues: { ':run': 'run', ':pending': 'pending' },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) ids.push(String(item.run_id));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return ids;
  }

  async putWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: webhookToItem(endpoint),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async listWebhookEndpoints(orgName: string): Promise<WebhookEndpoint[]> {
    const keys = await this.queryAll({
      TableName: this.tableName,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': key.orgWebhooks(orgName) },
    });
    const items = await this.batchGet(keys.map(({ pk, sk }) => ({ pk, sk })));
    return items.map(itemToWebhook).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async deleteWebhookEndpoint(endpointId: string): Promise<boolean> {
    const deleted = this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: key.webhook(endpointId), ConditionExpression: 'attribute_exists(pk)' }),
    );
    return (await unlessConditionFails(deleted)) !== null;
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

  private async getItem(itemKey: Item): Promise<Item | null> {
    const result = await this.db.send(new GetCommand({ TableName: this.tableName, Key: itemKey, ConsistentRead: true }));
    return result.Item ?? null;
  }

  /** BatchGetItem in chunks of 100, retrying what DynamoDB leaves unprocessed. */
  private async batchGet(keys: Item[]): Promise<Item[]> {
    const items: Item[] = [];
    for (let start = 0; start < keys.length; start += 100) {
      await untilProcessed(keys.slice(start, start + 100), 'BatchGetItem', async (pending) => {
        const result = await this.db.send(
          new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        items.push(...(result.Responses?.[this.tableName] ?? []));
        return result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      });
    }
    return items;
  }

  private async queryAll(input: QueryCommandInput): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const result = await this.db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}
