import { InvalidCursorError } from '../domain/repository.js';
import type { Item } from './items.js';

/** Cursors are opaque to callers: base64url JSON of DynamoDB's LastEvaluatedKey. */
export const encodeCursor = (lastKey: Item | undefined): string | null =>
  lastKey ? Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64url') : null;

/** What each attribute of a listing's LastEvaluatedKey must look like: exactly these, no others. */
export type CursorShape = Record<string, (value: string) => boolean>;

/** DynamoDB refuses key values over 1 KB for a sort key (2 KB for a partition key), and empty ones. */
const MAX_KEY_BYTES = 1024;

const fits = (shape: CursorShape, decoded: unknown): decoded is Record<string, string> => {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return false;
  const entries = Object.entries(decoded);
  return (
    entries.length === Object.keys(shape).length &&
    entries.every(
      ([name, value]) =>
        Object.hasOwn(shape, name) &&
        typeof value === 'string' &&
        value.length > 0 &&
        Buffer.byteLength(value) <= MAX_KEY_BYTES &&
        shape[name]?.(value) === true,
    )
  );
};

/**
 * A cursor back into the key DynamoDB handed out. One that was edited (an attribute added,
 * dropped or changed in kind) or comes from another listing is refused before it reaches
 * DynamoDB, where it would be a ValidationException, or open another partition.
 */
export const decodeCursor = (cursor: string | undefined, shape: CursorShape): Item | undefined => {
  if (cursor === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (!fits(shape, decoded)) throw new InvalidCursorError();
  return decoded;
};
