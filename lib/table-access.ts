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
  delivery: prefixOf(key.delivery('id', 'ep').pk),
  message: prefixOf(key.message('id').pk),
  runEvent: prefixOf(key.runEvent('id', 1).pk),
  reportMeter: prefixOf(key.reportMeter('org', 0).pk),
  streamSlots: prefixOf(key.streamSlots('id').pk),
  adminMeter: prefixOf(key.adminMeter('org', 'sub', 0).pk),
  quota: prefixOf(key.quota('org').pk),
  assertion: prefixOf(key.assertion('digest').pk),
} as const;
export type KeyPrefix = (typeof KEY_PREFIX)[keyof typeof KEY_PREFIX];

/**
 * Partitions named by a pattern (IAM `StringLike`: `*` is any run of characters) where a
 * prefix would say too much: an organization's audit log is `ORG#<org>#AUDIT`, and `ORG#*`
 * would be every Knap too. `ORG#*#AUDIT` matches no Knap's `ORG#<org>`, since organization
 * names have no `#` (shared/domain/admins.ts, orgNameProblem); test/cdk/iam.test.ts checks it.
 */
export const KEY_PARTITION = {
  audit: key.orgAudit('*'),
  /**
   * Organizations' Knaps (`ORG#<org>`, sort keys `KNAP#...`): an admin's listing. IAM cannot
   * narrow a Query by sort key, so the pattern also covers `ORG#<org>#AUDIT`, which the admin
   * function reads anyway; the listing's key condition names `KNAP#` (shared/store/knap-store.ts).
   */
  orgKnaps: key.knap('*', '').pk,
  runEvents: key.runEvents('*'),
  deliveries: key.runDeliveries('*'),
} as const;
export type KeyPartition = (typeof KEY_PARTITION)[keyof typeof KEY_PARTITION];

/** The keys an item action may address: every partition with a prefix, or the partitions of a pattern. */
export type KeyScope = KeyPrefix | KeyPartition;

const isPrefix = (scope: KeyScope): scope is KeyPrefix => (Object.values(KEY_PREFIX) as string[]).includes(scope);

/** The `dynamodb:LeadingKeys` value (IAM `StringLike`) of a scope: `CLIENT#` -> `CLIENT#*`; a pattern as it is. */
export const leadingKeysPattern = (scope: KeyScope): string => (isPrefix(scope) ? `${scope}*` : scope);

/** Whether a partition key is within a scope, as IAM's `StringLike` would judge it. */
export const inScope = (scope: KeyScope, pk: string): boolean => {
  const pattern = leadingKeysPattern(scope)
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`, 's').test(pk);
};

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

/** What a Query may read: an index, by name, or the table itself in the partitions of a pattern only. */
export type QueryTarget = IndexName | KeyPartition;

/**
 * What a function may do with the table: each item action on the partition-key prefixes (or
 * partition patterns) it needs (an IAM condition on `dynamodb:LeadingKeys`), and Query on the
 * indexes it reads, by name (never `index/*`); a Query of the table itself only in the
 * partitions of a KEY_PARTITION pattern (a Query on any `pk` would read any item kind).
 */
export type TableAccess = { readonly [A in ItemAction]?: readonly KeyScope[] } & {
  readonly 'dynamodb:Query'?: readonly QueryTarget[];
};

/** The indexes a Query target list names, and the table partitions (patterns) it names. */
export const queryTargetsOf = (targets: readonly QueryTarget[]): { indexes: IndexName[]; partitions: KeyPartition[] } => {
  const partitions = (Object.values(KEY_PARTITION) as string[]).filter((pattern) =>
    (targets as readonly string[]).includes(pattern),
  ) as KeyPartition[];
  return {
    indexes: targets.filter((target) => !(partitions as string[]).includes(target)) as IndexName[],
    partitions,
  };
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

/**
 * Every admin change is audited after it is made: one PutItem in the organization's audit
 * partition (`ORG#<org>#AUDIT`), never anywhere else under `ORG#`.
 */
/**
 * Every admin route counts the admin's request first: one conditional UpdateItem on the
 * admin's item of the minute (GetItem only where a failed condition does not return the item).
 */
export const ADMIN_AUTH: TableAccess = {
  'dynamodb:UpdateItem': [KEY_PREFIX.adminMeter],
  'dynamodb:GetItem': [KEY_PREFIX.adminMeter],
};

export const ADMIN_AUDIT: TableAccess = {
  'dynamodb:PutItem': [KEY_PARTITION.audit],
};
