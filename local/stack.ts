import { openLocalTable } from './local-table.js';
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
  process.env.AWS_REGION ??= 'us-east-1';
  const table = await openLocalTable({
    tableName: options.tableName,
    endpoint: options.dynamodbEndpoint,
    port: options.dynamodbPort,
    dataDir: options.dataDir,
    region: process.env.AWS_REGION,
  });
  const { endpoint } = table;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = options.tableName;
  try {
    const api = await startApiServer({
      port: options.port,
      host: options.host,
      accessLog: options.accessLog,
      countRoundTrips: options.countRoundTrips,
    });
    return {
      api,
      dynamodbEndpoint: endpoint,
      createdTable: table.createdTable,
      close: async () => {
        await api.close();
        await table.close();
      },
    };
  } catch (error) {
    await table.close();
    throw error;
  }
};
