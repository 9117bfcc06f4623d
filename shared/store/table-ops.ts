/**
 * What every store module of the one table does the same way: reads by key, batches that
 * retry what DynamoDB leaves unprocessed, and conditional writes whose refusal is an answer.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, GetCommand, PutCommand, QueryCommand, type QueryCommandInput } from './commands.js';
import type { DocumentSender } from './dynamo-client.js';

export type Item = Record<string, unknown>;

/** The attributes to read of each item, instead of all of them. */
export interface Projection {
  ProjectionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/** One put or delete of a BatchWriteItem, as the document client takes it. */
export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

/**
 * Sends a batch until DynamoDB has processed all of it: under throttling BatchGetItem and
 * BatchWriteItem hand back what they left, which is retried with backoff, five tries in all.
 */
const untilProcessed = async <T>(
  batch: T[],
  operation: string,
  send: (pending: T[]) => Promise<T[]>,
  /** Tries made already: the batch is what the last of them left. */
  tried = 0,
): Promise<void> => {
  let pending = batch;
  for (let attempt = tried; pending.length > 0; attempt += 1) {
    if (attempt >= 5) throw new Error(`${operation} left ${pending.length} item(s) unprocessed`);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    pending = await send(pending);
  }
};

/**
 * A conditional write: its result, or null when its condition did not hold (nothing was
 * written). Any other error is thrown.
 */
export const unlessConditionFails = <T>(write: Promise<T>): Promise<T | null> =>
  // One handler on the write's promise, not an async function around it: every create's path.
  write.catch((error: unknown) => {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  });

/** The table and the client that reaches it, with the reads and batches every module uses. */
export class TableOps {
  constructor(
    readonly db: DocumentSender,
    readonly tableName: string,
  ) {}

  /** Puts an item that must be new: false when one with its key exists (nothing is written then). */
  async putNew(item: Item): Promise<boolean> {
    const put = this.db.send(
      new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return (await unlessConditionFails(put)) !== null;
  }

  async getItem(itemKey: Item): Promise<Item | null> {
    const result = await this.db.send(new GetCommand({ TableName: this.tableName, Key: itemKey, ConsistentRead: true }));
    return result.Item ?? null;
  }

  /** BatchGetItem in chunks of 100, retrying what DynamoDB leaves unprocessed. */
  async batchGet(keys: Item[], only?: Projection): Promise<Item[]> {
    const items: Item[] = [];
    for (let start = 0; start < keys.length; start += 100) {
      const chunk = keys.length <= 100 ? keys : keys.slice(start, start + 100);
      // Every bearer request reads its token's standing so (two keys): the first try directly,
      // and the retries only for what it left.
      const left = await this.getChunk(chunk, items, only);
      if (left.length > 0) await untilProcessed(left, 'BatchGetItem', (pending) => this.getChunk(pending, items, only), 1);
    }
    return items;
  }

  /** One BatchGetItem: its items added to `items`, the keys it left unprocessed returned. */
  private async getChunk(pending: Item[], items: Item[], only?: Projection): Promise<Item[]> {
    const result = await this.db.send(
      new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true, ...only } } }),
    );
    for (const item of result.Responses?.[this.tableName] ?? []) items.push(item);
    return result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
  }

  /** BatchWriteItem in chunks of 25, retrying what DynamoDB leaves unprocessed. */
  async batchWrite(requests: WriteRequest[]): Promise<void> {
    for (let start = 0; start < requests.length; start += 25) {
      await untilProcessed(requests.slice(start, start + 25), 'BatchWriteItem', async (pending) => {
        const result = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
        return (result.UnprocessedItems?.[this.tableName] ?? []) as WriteRequest[];
      });
    }
  }

  /**
   * The items of one partition of a keys-only index, in the index's order: its keys by Query,
   * then the items themselves by BatchGetItem (one missing meanwhile is left out).
   */
  async itemsOfKeysIndex(index: string, partition: string): Promise<Item[]> {
    const keys = await this.queryAll({
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': partition },
    });
    const byPk = new Map((await this.batchGet(keys.map(({ pk, sk }) => ({ pk, sk })))).map((item) => [item.pk, item]));
    return keys.flatMap(({ pk }) => {
      const item = byPk.get(pk);
      return item ? [item] : [];
    });
  }

  async queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      // Copied, then set: a spread followed by new keys is slow on Node.js 20.
      const page: QueryCommandInput = Object.assign({ TableName: this.tableName }, input);
      page.ExclusiveStartKey = startKey;
      const result = await this.db.send(new QueryCommand(page));
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}
