/**
 * The one table's physical shape, shared by the CDK stack and the local stack's
 * create-table so both build exactly the same thing. The key design lives in repository.ts.
 */
export const DEFAULT_TABLE_NAME = 'knap';

export const TABLE_KEYS = { partition: 'pk', sort: 'sk' } as const;
export const TTL_ATTRIBUTE = 'expires_at';

/** Generic overloaded indexes (names kept abstract on purpose: the repository gives them meaning). */
export const INDEXES = [
  { name: 'gsi1', partition: 'gsi1pk', sort: 'gsi1sk' },
  { name: 'gsi2', partition: 'gsi2pk', sort: 'gsi2sk' },
] as const;

export type IndexName = (typeof INDEXES)[number]['name'];
