/**
 * API clients and what authenticates through them: the client item (with its rate-limit
 * counter), refresh-token grants, revocations, and the stored tokens of earlier versions.
 * Key design: keys.ts; item shapes: items.ts.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type ApiClient, type ClientSecret, secretIdOf } from '../domain/clients.js';
import type {
  ClientChanges,
  ClientJwks,
  CountRequestInput,
  CountRequestResult,
  RequestGuard,
  RevocationMigration,
  SecretsChange,
} from '../domain/repository.js';
import type { GrantRecord, TokenRecord, TokenStanding } from '../domain/tokens.js';
import {
  clientRevocationMarks,
  clientToItem,
  grantToItem,
  itemToClient,
  itemToGrant,
  itemToMetered,
  itemToToken,
  secretsToMap,
  secretToEntry,
  tokenToItem,
} from './client-items.js';
import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand } from './commands.js';
import { key } from './keys.js';
import { type Item, type TableOps, unlessConditionFails } from './table-ops.js';

/** Names per REMOVE of the migration: ~6 bytes each keeps the expression far under DynamoDB's 4 KB. */
export const MARKS_PER_WRITE = 100;
/** Revocation items written at once by the migration. */
const PARALLEL_WRITES = 16;

/**
 * The metering write's check of the caller's credential, written into the write's names and
 * values. Every bearer request takes it: a token of generation N alone (the common case) adds
 * one value and no name, with no arrays built.
 */
const addGuard = (guard: RequestGuard, names: Record<string, string>, values: Item, now: string): string => {
  if ('secretHash' in guard) {
    values[':guard'] = guard.secretHash;
    if (guard.legacy) return 'secret_hash = :guard';
    // The presented secret names its own entry (its id is a hash of its hash): no OR, no scan.
    names['#sid'] = secretIdOf(guard.secretHash);
    values[':epoch'] = Math.floor(Date.parse(now) / 1000);
    return 'client_secrets.#sid.secret_hash = :guard AND client_secrets.#sid.expires_epoch > :epoch';
  }
  if ('assertion' in guard) return 'attribute_exists(pk)';
  values[':guard'] = guard.generation;
  let expression = 'generation = :guard';
  const ids = guard.notRevoked ?? [];
  for (let index = 0; index < ids.length; index += 1) {
    names[`#rv${index}`] = key.revocationMark(ids[index] as string);
    expression += ` AND attribute_not_exists(#rv${index})`;
  }
  return expression;
};

/** Runs `work` over `items`, at most `width` at a time. */
const inWaves = async <T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> => {
  for (let start = 0; start < items.length; start += width) await Promise.all(items.slice(start, start + width).map(work));
};

const GRANT_SK = key.grant('').sk;
const REVOKED_SK = key.revoked('').sk;

export class ClientStore {
  /**
   * Whether this DynamoDB hands back the item a failed condition saw (AWS and DynamoDB Local
   * do; dynalite does not). Once seen, a failure without an item means there is none, so an
   * unknown client costs what a wrong secret costs: no GetItem after the write.
   */
  private returnsOldItems = false;

  constructor(private readonly table: TableOps) {}

  private get db() {
    return this.table.db;
  }

  private get tableName() {
    return this.table.tableName;
  }

  /**
   * New only, or this very write again: the SDK sends a write again when its answer was lost,
   * and the item its first try stored carries the same token (`wt`), so the retry rewrites
   * what it wrote instead of failing as a duplicate. Nobody else knows a new client's id yet.
   */
  async putNewClient(client: ApiClient, writeToken?: string): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: writeToken === undefined ? clientToItem(client) : { ...clientToItem(client), wt: writeToken },
        ConditionExpression: writeToken === undefined ? 'attribute_not_exists(pk)' : 'attribute_not_exists(pk) OR wt = :token',
        ExpressionAttributeValues: writeToken === undefined ? undefined : { ':token': writeToken },
      }),
    );
  }

  async getClient(clientId: string): Promise<ApiClient | null> {
    const item = await this.table.getItem(key.client(clientId));
    return item ? itemToClient(item) : null;
  }

  /** Oldest client first (the index sorts by creation). */
  async listClientsByOrg(orgName: string): Promise<ApiClient[]> {
    return (await this.table.itemsOfKeysIndex('gsi3', key.orgClients(orgName))).map(itemToClient);
  }

  async updateClient(
    clientId: string,
    changes: ClientChanges,
    now: string,
    onlyIf?: { orgName: string; active: boolean },
  ): Promise<ApiClient | null> {
    const sets = ['updated_at = :now'];
    const removes: string[] = [];
    const values: Item = { ':now': now };
    const names: Record<string, string> = {};
    if (changes.name !== undefined) {
      sets.push('#name = :name');
      names['#name'] = 'name';
      values[':name'] = changes.name;
    }
    if (changes.description !== undefined) {
      sets.push('description = :description');
      values[':description'] = changes.description;
    }
    if (changes.scopes !== undefined) {
      sets.push('scopes = :scopes');
      values[':scopes'] = [...changes.scopes];
    }
    if (changes.secretHash !== undefined) {
      // Regenerate: one new secret in place of every other (those of earlier versions' shape too).
      const { secretHash } = changes;
      sets.push('client_secrets = :secrets');
      values[':secrets'] = secretsToMap([
        { secretId: secretIdOf(secretHash), secretHash, createdAt: now, lastUsedAt: null, expiresAt: null },
      ]);
      removes.push('secret_hash');
    }
    if (changes.status !== undefined) {
      sets.push('#status = :status');
      names['#status'] = 'status';
      values[':status'] = changes.status;
    }
    const conditions = ['attribute_exists(pk)'];
    if (onlyIf) {
      conditions.push('org_name = :org');
      values[':org'] = onlyIf.orgName;
      if (onlyIf.active) {
        conditions.push('#status = :active');
        names['#status'] = 'status';
        values[':active'] = 'active';
      }
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
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
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
    const open = input.mode === 'open';
    // No OR on the path every request takes: parsing one costs dynalite (and the bench) ~2 ms.
    const ownLimit = input.limit === 'own';
    const windowCondition = open
      ? '(attribute_not_exists(rl_window) OR rl_window < :window)'
      : ownLimit
        ? 'rl_window = :window AND rl_count < rate_limit'
        : 'rl_window = :window AND rl_count < :defaultLimit AND attribute_not_exists(rate_limit)';
    const names: Record<string, string> = { '#status': 'status' };
    const values: Item = { ':active': 'active', ':window': input.window, ':one': 1, ':now': input.now };
    if (!open && !ownLimit) values[':defaultLimit'] = input.defaultLimit;
    const guard = addGuard(input.guard, names, values, input.now);
    // A retried write that was applied (its answer lost) fails this, and is recognized below.
    const token = input.writeToken;
    if (token !== undefined) values[':token'] = token;
    const once = token === undefined ? '' : ' AND NOT wt = :token';
    let stamp = token === undefined ? '' : ', wt = :token';
    // The secret's last use rides on this write (no write of its own, nothing per hour to skip);
    // a secret stored the old way moves into the map on its first use.
    if ('secretHash' in input.guard) {
      const { legacy, secretHash } = input.guard;
      if (legacy) {
        const secret = {
          secretId: secretIdOf(secretHash),
          secretHash,
          createdAt: legacy.createdAt,
          lastUsedAt: input.now,
          expiresAt: null,
        };
        values[':secrets'] = secretsToMap([secret]);
        stamp += ', client_secrets = :secrets';
      } else {
        stamp += ', client_secrets.#sid.last_used_at = :now';
      }
    }
    const legacyRemove = 'secretHash' in input.guard && input.guard.legacy ? ' REMOVE secret_hash' : '';
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(input.clientId),
          UpdateExpression: open
            ? `SET rl_window = :window, rl_count = :one, last_used_at = :now${stamp}${legacyRemove}`
            : `SET last_used_at = :now${stamp} ADD rl_count :one${legacyRemove}`,
          // `#status = :active` holds only for an item that exists: no attribute_exists(pk) needed.
          ConditionExpression: `#status = :active AND ${guard} AND ${windowCondition}${once}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { applied: true, state: itemToMetered(result.Attributes ?? {}) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (error.Item) this.returnsOldItems = true;
      const old = error.Item
        ? unmarshall(error.Item)
        : this.returnsOldItems
          ? null
          : await this.table.getItem(key.client(input.clientId));
      const state = old ? itemToMetered(old) : null;
      // Our own earlier try, applied: counted once, as it was.
      if (state && token !== undefined && state.writeToken === token) return { applied: true, state };
      return { applied: false, state };
    }
  }

  async changeClientSecrets(
    clientId: string,
    change: SecretsChange,
    seen: Pick<ApiClient, 'secrets' | 'legacySecret'>,
    now: string,
    orgName?: string,
  ): Promise<ApiClient | null> {
    const names: Record<string, string> = { '#status': 'status' };
    const values: Item = { ':active': 'active', ':now': now };
    const conditions = ['#status = :active'];
    if (orgName !== undefined) {
      conditions.push('org_name = :org');
      values[':org'] = orgName;
    }
    const sets = ['updated_at = :now'];
    const removes: string[] = [];
    if (seen.legacySecret) {
      // Still the one secret of earlier versions: the whole map is written, the old member goes.
      const old = seen.secrets[0] as ClientSecret;
      conditions.push('secret_hash = :old', 'attribute_not_exists(client_secrets)');
      values[':old'] = old.secretHash;
      removes.push('secret_hash');
      const after = change.kind === 'add' ? [old, change.secret].filter((s) => !change.drop.includes(s.secretId)) : [];
      sets.push('client_secrets = :secrets');
      values[':secrets'] = secretsToMap(after);
    } else {
      // The map as read: the same number of entries, each of them still there.
      conditions.push('size(client_secrets) = :size');
      values[':size'] = seen.secrets.length;
      seen.secrets.forEach((secret, index) => {
        names[`#s${index}`] = secret.secretId;
        conditions.push(`attribute_exists(client_secrets.#s${index})`);
      });
      if (change.kind === 'add') {
        names['#new'] = change.secret.secretId;
        sets.push('client_secrets.#new = :secret');
        values[':secret'] = secretToEntry(change.secret);
        for (const id of change.drop) {
          const index = seen.secrets.findIndex((secret) => secret.secretId === id);
          removes.push(`client_secrets.#s${index}`);
        }
      } else {
        const index = seen.secrets.findIndex((secret) => secret.secretId === change.secretId);
        removes.push(`client_secrets.#s${index}`);
      }
    }
    const result = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(clientId),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return result?.Attributes ? itemToClient(result.Attributes) : null;
  }

  async getClientJwks(clientId: string): Promise<ClientJwks | null> {
    const item = await this.table.getItem(key.clientJwks(clientId));
    if (!item || !Array.isArray(item.keys)) return null;
    return { keys: item.keys as Record<string, unknown>[], updatedAt: String(item.updated_at) };
  }

  async putClientJwks(clientId: string, jwks: ClientJwks): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          type: 'client-jwks',
          ...key.clientJwks(clientId),
          client_id: clientId,
          keys: jwks.keys,
          updated_at: jwks.updatedAt,
        },
      }),
    );
  }

  async useAssertionId(clientId: string, jti: string, expiresAt: number, nowSeconds: number): Promise<boolean> {
    const digest = createHash('sha256').update(`${clientId}\u0000${jti}`).digest('hex');
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { type: 'assertion', ...key.assertion(digest), expires_at: expiresAt },
          // A jti still on record is a replay; one whose record outlived its TTL may be taken again.
          ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
          ExpressionAttributeValues: { ':now': nowSeconds },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async refundRequest(clientId: string, window: number): Promise<void> {
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.client(clientId),
          UpdateExpression: 'ADD rl_count :minusOne',
          ConditionExpression: 'rl_window = :window AND rl_count > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':window': window, ':zero': 0 },
        }),
      ),
    );
  }

  async putGrant(grant: GrantRecord): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: grantToItem(grant) }));
  }

  async deleteGrant(grantKey: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key.grant(grantKey) }));
  }

  /** One BatchGetItem: the grant and the revocation items, consistent, so a revocation bites at once. */
  async tokenStanding(query: { grantKey?: string; revocationIds: readonly string[] }): Promise<TokenStanding> {
    // Every bearer request asks (two ids at most): a loop, not a Set and three arrays.
    const { revocationIds } = query;
    const keys: Item[] = query.grantKey ? [key.grant(query.grantKey)] : [];
    for (let index = 0; index < revocationIds.length; index += 1) {
      const id = revocationIds[index] as string;
      if (revocationIds.indexOf(id) === index) keys.push(key.revoked(id));
    }
    if (keys.length === 0) return { grant: null, revoked: false };
    const items = await this.table.batchGet(keys);
    const grant = items.find((item) => item.sk === GRANT_SK);
    return { grant: grant ? itemToGrant(grant) : null, revoked: items.some((item) => item.sk === REVOKED_SK) };
  }

  async putRevocations(revocations: Readonly<Record<string, number>>): Promise<void> {
    await inWaves(Object.entries(revocations), PARALLEL_WRITES, ([id, until]) =>
      unlessConditionFails(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key.revoked(id),
            UpdateExpression: 'SET #type = :type, expires_at = :until',
            // A revocation recorded until later stays as it is.
            ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :until',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': 'revocation', ':until': until },
          }),
        ),
      ),
    );
  }

  /**
   * Scans the client items (a one-off: the marks live on no index) and, per client, first
   * turns the marks still in force into revocation items, then removes every mark, at most
   * MARKS_PER_WRITE per UpdateItem so each expression stays under DynamoDB's 4 KB.
   */
  async migrateClientRevocations(nowSeconds: number): Promise<RevocationMigration> {
    const done: RevocationMigration = { clients: 0, moved: 0, removed: 0 };
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: '#type = :client',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':client': 'client' },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const marks = Object.entries(clientRevocationMarks(item));
        if (marks.length === 0) continue;
        done.clients += 1;
        const live = marks.filter(([, until]) => until > nowSeconds);
        await this.putRevocations(Object.fromEntries(live));
        done.moved += live.length;
        for (let start = 0; start < marks.length; start += MARKS_PER_WRITE) {
          const chunk = marks.slice(start, start + MARKS_PER_WRITE);
          const names = Object.fromEntries(chunk.map(([id], index) => [`#m${index}`, key.revocationMark(id)]));
          await unlessConditionFails(
            this.db.send(
              new UpdateCommand({
                TableName: this.tableName,
                Key: { pk: item.pk, sk: item.sk },
                UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
                // A client deleted meanwhile stays deleted.
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeNames: names,
              }),
            ),
          );
          done.removed += chunk.length;
        }
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return done;
  }

  async putTokens(records: TokenRecord[]): Promise<void> {
    await this.table.batchWrite(records.map((record) => ({ PutRequest: { Item: tokenToItem(record) } })));
  }

  async deleteTokens(tokenHashes: string[]): Promise<void> {
    await this.table.batchWrite(tokenHashes.map((tokenHash) => ({ DeleteRequest: { Key: key.token(tokenHash) } })));
  }

  async getToken(tokenHash: string): Promise<TokenRecord | null> {
    const item = await this.table.getItem(key.token(tokenHash));
    return item ? itemToToken(tokenHash, item) : null;
  }
}
