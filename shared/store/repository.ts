/**
 * The DynamoDB repository: the only module that knows the key design.
 *
 * One table, keys `pk`/`sk`, three overloaded GSIs (see table.ts):
 *
 * | item        | pk                      | sk            | index entries                                                      |
 * |-------------|-------------------------|---------------|--------------------------------------------------------------------|
 * | API client  | `CLIENT#<client_id>`    | `CLIENT`      | gsi3 (keys only): `ORG#<org>#CLIENTS` / `<created_at>#<client_id>`  |
 * | token       | `TOKEN#<sha256(token)>` | `TOKEN`       | -                                                                  |
 * | Knap        | `ORG#<org>`             | `KNAP#<uuid>` | gsi1: `CREATOR#<client_id>` / `<created>#<uuid>`                   |
 * |             |                         |               | gsi2 (shared Knaps only): `ORG#<org>#SHARED` / `<created>#<uuid>`  |
 *
 * Access patterns: client by id (GetItem, UpdateItem), clients of an org (gsi3 + BatchGetItem,
 * admin only), token by hash (GetItem), Knaps a client created (gsi1), Knaps its organization
 * shares (gsi2), both newest first.
 *
 * - The client item also carries the rate-limit counter (`rl_window`, `rl_count`) and
 *   `last_used_at`, so one conditional UpdateItem authenticates, meters and stamps a request.
 * - Token items carry `expires_at` (epoch seconds), the table's TTL attribute. TTL only tidies:
 *   expiry and the client's `generation` are checked in code on every use.
 * - Every write is a single-item conditional write: no transactions (dynalite has none) and
 *   nothing half-written.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ApiClient, ClientStatus } from '../domain/clients.js';
import { isShared, type Knap, type KnapOwnership, type KnapPage } from '../domain/knaps.js';
import type { TokenKind, TokenRecord } from '../domain/tokens.js';

type Item = Record<string, unknown>;

/** A client together with its rate-limit counter, as the meter sees it. */
export interface MeteredClient {
  client: ApiClient;
  window: number | null;
  count: number;
}

/** What a metered request must match, besides the client being active. */
export type RequestGuard = { secretHash: string } | { generation: number };

export interface CountRequestInput {
  clientId: string;
  guard: RequestGuard;
  window: number;
  now: string;
  /** The limit of a client that has none of its own. */
  defaultLimit: number;
  /** `continue`: the counter is already in this window; `open`: start this window at 1. */
  mode: 'continue' | 'open';
}

export type CountRequestResult = { applied: true; state: MeteredClient } | { applied: false; state: MeteredClient | null };

export interface ClientChanges {
  secretHash?: string;
  status?: ClientStatus;
  /** A limit of its own, or null to follow the deployment's default again. */
  rateLimit?: number | null;
  /** End every token issued so far. */
  bumpGeneration?: boolean;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Repository {
  putNewClient(client: ApiClient): Promise<void>;
  getClient(clientId: string): Promise<ApiClient | null>;
  listClientsByOrg(orgName: string): Promise<ApiClient[]>;
  updateClient(clientId: string, changes: ClientChanges, now: string): Promise<ApiClient | null>;
  countRequest(input: CountRequestInput): Promise<CountRequestResult>;
  /** Stores several tokens in one round trip (an access and a refresh token per grant). */
  putTokens(records: TokenRecord[]): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | null>;
  putKnap(knap: Knap, ownership: KnapOwnership): Promise<void>;
  listKnapsByCreator(clientId: string, page: PageRequest): Promise<KnapPage>;
  listSharedKnaps(orgName: string, page: PageRequest): Promise<KnapPage>;
}

const key = {
  client: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),
  token: (tokenHash: string) => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  knap: (orgName: string, uuid: string) => ({ pk: `ORG#${orgName}`, sk: `KNAP#${uuid}` }),
  orgClients: (orgName: string) => `ORG#${orgName}#CLIENTS`,
  creatorKnaps: (clientId: string) => `CREATOR#${clientId}`,
  sharedKnaps: (orgName: string) => `ORG#${orgName}#SHARED`,
};

const clientToItem = (client: ApiClient): Item => ({
  ...key.client(client.clientId),
  gsi3pk: key.orgClients(client.orgName),
  gsi3sk: `${client.createdAt}#${client.clientId}`,
  type: 'client',
  client_id: client.clientId,
  org_name: client.orgName,
  name: client.name,
  description: client.description,
  user_id: client.userId,
  status: client.status,
  generation: client.generation,
  rate_limit: client.rateLimit ?? undefined,
  scopes: client.scopes,
  secret_hash: client.secretHash,
  created_at: client.createdAt,
  updated_at: client.updatedAt,
  last_used_at: client.lastUsedAt,
});

const itemToClient = (item: Item): ApiClient => ({
  clientId: String(item.client_id),
  orgName: String(item.org_name),
  name: String(item.name),
  description: String(item.description ?? ''),
  userId: Number(item.user_id),
  status: item.status === 'revoked' ? 'revoked' : 'active',
  generation: Number(item.generation),
  rateLimit: typeof item.rate_limit === 'number' ? item.rate_limit : null,
  scopes: Array.isArray(item.scopes) ? item.scopes.map(String) : [],
  secretHash: String(item.secret_hash),
  createdAt: String(item.created_at),
  updatedAt: String(item.updated_at ?? item.created_at),
  lastUsedAt: typeof item.last_used_at === 'string' ? item.last_used_at : null,
});

const itemToMetered = (item: Item): MeteredClient => ({
  client: itemToClient(item),
  window: typeof item.rl_window === 'number' ? item.rl_window : null,
  count: typeof item.rl_count === 'number' ? item.rl_count : 0,
});

const tokenToItem = (record: TokenRecord): Item => ({
  ...key.token(record.tokenHash),
  type: 'token',
  kind: record.kind,
  client_id: record.clientId,
  generation: record.generation,
  scope: record.scope,
  issued_at: record.issuedAt,
  expires_at: record.expiresAt,
});

const itemToToken = (tokenHash: string, item: Item): TokenRecord => ({
  tokenHash,
  kind: item.kind as TokenKind,
  clientId: String(item.client_id),
  generation: Number(item.generation),
  scope: String(item.scope ?? ''),
  issuedAt: Number(item.issued_at),
  expiresAt: Number(item.expires_at),
});

const KNAP_FIELDS = [
  'uuid',
  'name',
  'creation_user_id',
  'schedule_type',
  'is_active',
  'visibility',
  'can_toggle_default_active',
  'active_by_default',
  'tool_metadata',
  'creation_timestamp',
  'updated_at',
  'schedule_info',
  'next_run_at',
] as const satisfies readonly (keyof Knap)[];

const knapToItem = (knap: Knap, ownership: KnapOwnership): Item => {
  const order = `${knap.creation_timestamp}#${knap.uuid}`;
  return {
    ...key.knap(ownership.orgName, knap.uuid),
    type: 'knap',
    org_name: ownership.orgName,
    creator_client_id: ownership.creatorClientId,
    gsi1pk: key.creatorKnaps(ownership.creatorClientId),
    gsi1sk: order,
    // Sparse index: private Knaps never enter the shared listing.
    ...(isShared(knap.visibility) ? { gsi2pk: key.sharedKnaps(ownership.orgName), gsi2sk: order } : {}),
    ...knap,
  };
};

const itemToKnap = (item: Item): Knap =>
  Object.fromEntries(KNAP_FIELDS.map((field) => [field, item[field] ?? null])) as unknown as Knap;

/** Cursors are opaque to callers: base64url JSON of DynamoDB's LastEvaluatedKey. */
const encodeCursor = (lastKey: Item | undefined): string | null =>
  lastKey ? Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64url') : null;

export class InvalidCursorError extends Error {}

const decodeCursor = (cursor: string | undefined, expectedPartition: { name: string; value: string }): Item | undefined => {
  if (cursor === undefined) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      decoded !== null &&
      typeof decoded === 'object' &&
      !Array.isArray(decoded) &&
      (decoded as Item)[expectedPartition.name] === expectedPartition.value &&
      Object.values(decoded).every((value) => typeof value === 'string')
    ) {
      return decoded as Item;
    }
  } catch {
    // fall through
  }
  // A cursor must come from the same listing: never let one open another partition.
  throw new InvalidCursorError('Invalid cursor');
};

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

  async putKnap(knap: Knap, ownership: KnapOwnership): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: knapToItem(knap, ownership),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  listKnapsByCreator(clientId: string, page: PageRequest): Promise<KnapPage> {
    return this.knapPage('gsi1', key.creatorKnaps(clientId), page);
  }

  listSharedKnaps(orgName: string, page: PageRequest): Promise<KnapPage> {
    return this.knapPage('gsi2', key.sharedKnaps(orgName), page);
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
        ExclusiveStartKey: decodeCursor(page.cursor, { name: partitionName, value: partition }),
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
