import { setMaxListeners } from 'node:events';
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS, TTL_ATTRIBUTE } from '../shared/store/table.js';

export interface TtlSweeperOptions {
  /**
   * A client of its own: the sweeper's calls are not the API's, so they stay off the API's
   * round-trip counters. Bounded by its handler's timeouts (shared/lambda/bounded-http.ts).
   */
  client: DynamoDBClient;
  tableName: string;
  /** Between the end of one sweep and the start of the next. */
  intervalMs?: number;
  /** Items read per Scan page; small, so the embedded DynamoDB never stalls the API for long. */
  pageSize?: number;
  /** Pause between pages, so API requests get the embedded DynamoDB's thread in between. */
  pauseMs?: number;
  /** Epoch milliseconds; tests move it. */
  now?: () => number;
  /** A sweep that failed; the next one is still scheduled. */
  onError?: (error: unknown) => void;
}

export interface TtlSweeper {
  /** One full pass over the table; resolves with the number of items deleted. */
  sweepOnce(): Promise<number>;
  /** Sweeps now and then every `intervalMs`, until close(). The timers never keep the process alive. */
  start(): void;
  /** Stops the timers and waits for a sweep under way to stop at its next step. */
  close(): Promise<void>;
}

export const DEFAULT_TTL_SWEEP_INTERVAL_MS = 60_000;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * Deletes items whose TTL attribute (epoch seconds) has passed, as DynamoDB's TTL does in
 * AWS. dynalite implements no TTL, so without this expired tokens would pile up in the
 * local data folder for ever. Items without the attribute, or with a non-number in it, are
 * kept, as in AWS.
 */
export const createTtlSweeper = (options: TtlSweeperOptions): TtlSweeper => {
  const { client, tableName } = options;
  const intervalMs = options.intervalMs ?? DEFAULT_TTL_SWEEP_INTERVAL_MS;
  const pageSize = options.pageSize ?? 25;
  const pauseMs = options.pauseMs ?? 10;
  const now = options.now ?? Date.now;
  const names = { '#pk': TABLE_KEYS.partition, '#sk': TABLE_KEYS.sort, '#ttl': TTL_ATTRIBUTE };

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  // Ends a call under way at close(): each is bounded by the client's timeouts, and none may hold a stop.
  const stopping = new AbortController();
  // Every call under way listens to it: as many as the work runs side by side.
  setMaxListeners(0, stopping.signal);
  const sent = { abortSignal: stopping.signal };

  const deleteIfExpired = async (key: Record<string, AttributeValue>, nowSeconds: AttributeValue): Promise<boolean> => {
    try {
      await client.send(
        new DeleteItemCommand({
          TableName: tableName,
          Key: key,
          // Checked again at the delete: the item may have been rewritten since the scan read it.
          ConditionExpression: '#ttl < :now',
          ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':now': nowSeconds },
        }),
        sent,
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  };

  const sweep = async (): Promise<number> => {
    const nowSeconds: AttributeValue = { N: String(Math.floor(now() / 1000)) };
    let deleted = 0;
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName,
          Limit: pageSize,
          ExclusiveStartKey: start,
          FilterExpression: '#ttl < :now',
          ProjectionExpression: '#pk, #sk',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':now': nowSeconds },
        }),
        sent,
      );
      for (const key of page.Items ?? []) {
        if (closed) return deleted;
        if (await deleteIfExpired(key, nowSeconds)) deleted += 1;
      }
      start = page.LastEvaluatedKey;
      if (start && pauseMs > 0) await sleep(pauseMs);
    } while (start && !closed);
    return deleted;
  };

  const sweepOnce = (): Promise<number> => {
    if (closed) return Promise.resolve(0);
    // One pass at a time: a second caller shares the pass under way.
    running ??= sweep().finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = (delayMs: number) => {
    if (closed) return;
    timer = setTimeout(() => {
      sweepOnce()
        // A sweep that close() ended is no failure: the next start sweeps again.
        .catch((error: unknown) => {
          if (!closed) options.onError?.(error);
        })
        .finally(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  };

  return {
    sweepOnce,
    start: () => {
      if (timer === undefined && !closed) schedule(0);
    },
    close: async () => {
      closed = true;
      clearTimeout(timer);
      stopping.abort();
      await running?.catch(() => undefined);
    },
  };
};
