import { key } from '../shared/store/keys.js';
import type { IndexName } from '../shared/store/table.js';

/** `CLIENT#abc` -> `CLIENT#`: the partition-key prefix of an item kind. */
const prefixOf = (pk: string): string => pk.slice(0, pk.indexOf('#') + 1);

/**
 * The partition-key prefix of each item kind, read from the key design itself
 * (shared/store/keys.ts), so a change of a key moves the IAM conditions with it.
 */
export const KEY_PREFIX = {
  client: prefixOf(key.client('id').pk),
  token: prefixOf(key.token('hash').pk),
  grant: prefixOf(key.grant('id').pk),
  revoked: prefixOf(key.revoked('id').pk),
  knap: prefixOf(key.knap('org', 'uuid').pk),
  idempotency: prefixOf(key.idempotency('id', 'key').pk),
  run: prefixOf(key.run('id').pk),
  webhook: prefixOf(key.webhook('id').pk),
} as const;
export type KeyPrefix = (typeof KEY_PREFIX)[keyof typeof KEY_PREFIX];

/** Actions on items of the table, each addressed by its partition key (`dynamodb:LeadingKeys`). */
export type ItemAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:BatchWriteItem';

/** The DynamoDB actions a function may be granted; anything else needs a deliberate change here. */
export type DynamoAction = ItemAction | 'dynamodb:Query';

/**
 * What a function may do with the table: each item action on the partition-key prefixes it
 * needs (an IAM condition on `dynamodb:LeadingKeys`), and Query on the indexes it reads, by
 * name (never on the table itself, never `index/*`).
 */
export type TableAccess = { readonly [A in ItemAction]?: readonly KeyPrefix[] } & {
  readonly 'dynamodb:Query'?: readonly IndexName[];
};

/** The union of several grants, action by action. */
export const combine = (...accesses: TableAccess[]): TableAccess => {
  const merged: Record<string, string[]> = {};
  for (const access of accesses) {
    for (const [action, targets] of Object.entries(access) as [DynamoAction, readonly string[]][]) {
      merged[action] = [...new Set([...(merged[action] ?? []), ...targets])].sort();
    }
  }
  return merged as TableAccess;
};

export const actionsOf = (access: TableAccess): DynamoAction[] => (Object.keys(access) as DynamoAction[]).sort();

/**
 * Bearer authentication on every /api/studio route: one conditional UpdateItem on the client
 * that checks and meters it (a GetItem of the client when the failed condition did not return
 * it; another UpdateItem hands a revoked token's count back), beside the token's revocations
 * (BatchGetItem REVOKED#); a stored-format token of an earlier version is read first (GetItem).
 */
export const BEARER_AUTH: TableAccess = {
  'dynamodb:GetItem': [KEY_PREFIX.token, KEY_PREFIX.client],
  'dynamodb:UpdateItem': [KEY_PREFIX.client],
  'dynamodb:BatchGetItem': [KEY_PREFIX.revoked],
};

/** Client authentication (token, revoke, introspect): the conditional UpdateItem on the client, and its GetItem. */
export const CLIENT_AUTH: TableAccess = {
  'dynamodb:GetItem': [KEY_PREFIX.client],
  'dynamodb:UpdateItem': [KEY_PREFIX.client],
};
