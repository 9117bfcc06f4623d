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
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
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
import type { TokenRecord } from '../domain/tokens.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import {
  clientToItem,
  type Item,
  itemToClient,
  itemToIdempotency,
  itemToKnap,
  itemToMetered,
  itemToStoredKnap,
  itemToToken,
  knapToItem,
  tokenToItem,
} from './items.js';
import { key, knapIndexCursor } from './keys.js';

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

const guardCondition = (guard: RequestGuard): { expression: string; values: Item } =>
  'secretHash' in guard
    ? { expression: 'secret_hash = :guard', values: { ':guard': guard.secretHash } }
    : { expression: 'generation = :guard', values: { ':guard': guard.generation } };

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
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(clientId),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: changes.status !== undefined ? { '#status': 'status' } : undefined,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? itemToClient(result.Attributes) : null;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return null;
      throw error;
    }
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
    const windowCondition = open
      ? '(attribute_not_exists(rl_window) OR rl_window < :window)'
      : 'rl_window = :window AND (rl_count < rate_limit OR (attribute_not_exists(rate_limit) AND rl_count < :defaultLimit))';
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(input.clientId),
          UpdateExpression: open
            ? 'SET rl_window = :window, rl_count = :one, last_used_at = :now'
            : 'SET last_used_at = :now ADD rl_count :one',
          ConditionExpression: `attribute_exists(pk) AND #status = :active AND ${guard.expression} AND ${windowCondition}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':active': 'active',
            ':window': input.window,
            ':one': 1,
            ':now': input.now,
            ...(open ? {} : { ':defaultLimit': input.defaultLimit }),
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
    const puts = records.map((record) => ({ PutRequest: { Item: tokenToItem(record) } }));
    await untilProcessed(puts, 'BatchWriteItem', async (pending) => {
      const result = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
      return (result.UnprocessedItems?.[this.tableName] ?? []) as typeof pending;
    });
  }

  async getToken(tokenHash: string): Promise<TokenRecord | null> {
    const item = await this.getItem(key.token(tokenHash));
    return item ? itemToToken(tokenHash, item) : null;
  }

  async putKnap(knap: Knap, ownership: KnapOwnership): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: knapToItem(knap, ownership),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
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
    try {
      await write(
        version === 0
          ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(version)' }
          : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': version } },
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
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
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.idempotency(clientId, idempotencyKey),
          UpdateExpression: 'SET #state = :released',
          ConditionExpression: '#state = :inFlight AND request_hash = :hash',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':inFlight': 'in_flight', ':released': 'released', ':hash': requestHash },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
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
