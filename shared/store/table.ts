/**
 * The one table's physical shape, shared by the CDK stack and the local stack's
 * create-table so both build exactly the same thing. The key design lives in repository.ts.
 */
export const DEFAULT_TABLE_NAME = 'knap';

export const TABLE_KEYS = { partition: 'pk', sort: 'sk' } as const;
export const TTL_ATTRIBUTE = 'expires_at';

/**
 * Generic overloaded indexes (names kept abstract on purpose: the repository gives them
 * meaning). gsi3 projects keys only: the per-request metering write on a client item
 * changes no key, so it never costs an index write there.
 */
export const INDEXES = [
  { name: 'gsi1', partition: 'gsi1pk', sort: 'gsi1sk', projection: 'ALL' },
  { name: 'gsi2', partition: 'gsi2pk', sort: 'gsi2sk', projection: 'ALL' },
  { name: 'gsi3', partition: 'gsi3pk', sort: 'gsi3sk', projection: 'KEYS_ONLY' },
] as const;

export type IndexName = (typeof INDEXES)[number]['name'];
