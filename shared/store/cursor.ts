import { InvalidCursorError } from '../domain/repository.js';
import type { Item } from './items.js';

/** Cursors are opaque to callers: base64url JSON of DynamoDB's LastEvaluatedKey. */
export const encodeCursor = (lastKey: Item | undefined): string | null =>
  lastKey ? Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64url') : null;

export const decodeCursor = (
  cursor: string | undefined,
  expectedPartition: { name: string; value: string },
): Item | undefined => {
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
  throw new InvalidCursorError();
};
