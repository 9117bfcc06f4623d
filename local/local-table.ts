import { createDynamoClient } from '../shared/store/dynamo-client.js';
import { type EmbeddedDynamo, startEmbeddedDynamo } from './dynamodb.js';
import { ensureTable } from './ensure-table.js';

const SETUP_TIMEOUT_MS = 10_000;

export interface LocalTableOptions {
  tableName: string;
  /** Use this DynamoDB and start none. */
  endpoint?: string;
  /** Port of the embedded DynamoDB; a free one when absent. */
  port?: number;
  /** Where the embedded DynamoDB keeps its data; in memory when absent. */
  dataDir?: string;
  region?: string;
}

export interface LocalTable {
  endpoint: string;
  /** Created by this call (false when it was already there). */
  createdTable: boolean;
  /** Stops the embedded DynamoDB, if one was started; a given endpoint is left alone. */
  close(): Promise<void>;
}

/**
 * A DynamoDB with the table in it, for the local server, local invocation and tests: the
 * given endpoint, or an embedded dynalite started here (and stopped again if the table
 * cannot be made).
 */
export const openLocalTable = async (options: LocalTableOptions): Promise<LocalTable> => {
  const embedded: EmbeddedDynamo | undefined = options.endpoint
    ? undefined
    : await startEmbeddedDynamo({ port: options.port, dataDir: options.dataDir });
  const endpoint = options.endpoint ?? (embedded as EmbeddedDynamo).endpoint;
  // Bounded, so an endpoint that accepts connections and never answers fails the start instead of hanging it.
  const admin = createDynamoClient({ endpoint, region: options.region, requestTimeoutMs: SETUP_TIMEOUT_MS });
  try {
    const createdTable = await ensureTable(admin, options.tableName);
    return { endpoint, createdTable, close: async () => embedded?.close() };
  } catch (error) {
    await embedded?.close();
    throw error;
  } finally {
    admin.destroy();
  }
};
