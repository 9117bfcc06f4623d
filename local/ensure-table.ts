import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../shared/store/table.js';

const attributes = [TABLE_KEYS.partition, TABLE_KEYS.sort, ...INDEXES.flatMap((index) => [index.partition, index.sort])];

/** The table's keys, indexes and billing, from shared/store/table.ts; the CDK stack's table must match it. */
export const TABLE_DEFINITION = {
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
  KeySchema: [
    { AttributeName: TABLE_KEYS.partition, KeyType: 'HASH' },
    { AttributeName: TABLE_KEYS.sort, KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: INDEXES.map((index) => ({
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partition, KeyType: 'HASH' },
      { AttributeName: index.sort, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: index.projection },
  })),
} satisfies Omit<CreateTableCommandInput, 'TableName'>;

const tableExists = async (client: DynamoDBClient, tableName: string): Promise<boolean> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
};

/** Creates the table as the CDK stack defines it, when it is missing. Returns whether it created it. */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<boolean> => {
  if (await tableExists(client, tableName)) return false;
  try {
    await client.send(new CreateTableCommand({ TableName: tableName, ...TABLE_DEFINITION }));
  } catch (error) {
    if (error instanceof ResourceInUseException) return false; // created by someone else meanwhile
    throw error;
  }
  await waitUntilActive(client, tableName);
  // DynamoDB Local and AWS honour TTL; dynalite does not, so npm start sweeps expired items itself (local/ttl-sweeper.ts).
  // Expiry is checked in code in any case.
  await client
    .send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    )
    .catch(() => undefined);
  return true;
};

const waitUntilActive = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Table ${tableName} did not become ACTIVE`);
};
