import { createDynamoClient } from '../shared/store/dynamo-client.js';
import type { Deps } from '../shared/runtime.js';
import { type EmbeddedDynamo, startEmbeddedDynamo } from './dynamodb.js';
import { ensureTable } from './ensure-table.js';
import { type ApiServer, startApiServer } from './server.js';

export interface LocalStackOptions {
  port?: number;
  host?: string;
  tableName: string;
  /** Use this DynamoDB and start none. */
  dynamodbEndpoint?: string;
  dynamodbPort?: number;
  /** Where the embedded DynamoDB keeps its data; in memory when absent. */
  dataDir?: string;
  region?: string;
  /** Built from the environment when absent; given, they must point at the same table. */
  deps?: (endpoint: string) => Deps;
  accessLog?: boolean;
  countRoundTrips?: boolean;
}

export interface LocalStack {
  api: ApiServer;
  dynamodbEndpoint: string;
  /** Created by this start (false when it was already there). */
  createdTable: boolean;
  close(): Promise<void>;
}

/**
 * The whole API on localhost: an embedded DynamoDB (unless one is given), the table, and
 * the HTTP server. The handlers read DYNAMODB_ENDPOINT and TABLE_NAME from the environment,
 * as they do in Lambda, so those are set here before the handler modules load.
 */
export const startLocalStack = async (options: LocalStackOptions): Promise<LocalStack> => {
  let dynamo: EmbeddedDynamo | undefined;
  const endpoint =
    options.dynamodbEndpoint ??
    (dynamo = await startEmbeddedDynamo({ port: options.dynamodbPort, dataDir: options.dataDir })).endpoint;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = options.tableName;
  process.env.AWS_REGION ??= options.region ?? 'us-east-1';
  try {
    const admin = createDynamoClient({ endpoint, region: process.env.AWS_REGION });
    const createdTable = await ensureTable(admin, options.tableName);
    admin.destroy();
    const api = await startApiServer({
      port: options.port,
      host: options.host,
      deps: options.deps?.(endpoint),
      accessLog: options.accessLog,
      countRoundTrips: options.countRoundTrips,
    });
    return {
      api,
      dynamodbEndpoint: endpoint,
      createdTable,
      close: async () => {
        await api.close();
        await dynamo?.close();
      },
    };
  } catch (error) {
    await dynamo?.close();
    throw error;
  }
};
