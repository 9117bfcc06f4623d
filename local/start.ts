/**
 * `npm start`: the Knap API on http://127.0.0.1:$PORT over an embedded DynamoDB that keeps
 * its data in $DATA_DIR, or over $DYNAMODB_ENDPOINT when set.
 */
import './quiet-sdk-warning.js';
import { resolve } from 'node:path';
import { tableNameFromEnv } from '../shared/runtime.js';
import { startLocalStack } from './stack.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const dynamodbPort = Number(env.DYNAMODB_PORT ?? 8000);
const tableName = tableNameFromEnv(env);
const dataDir = resolve(env.DATA_DIR ?? '.data');
const external = env.DYNAMODB_ENDPOINT || undefined;

const stack = await startLocalStack({
  port,
  host: env.HOST ?? '127.0.0.1',
  tableName,
  dynamodbEndpoint: external,
  dynamodbPort,
  dataDir,
  accessLog: env.ACCESS_LOG !== 'false',
  countRoundTrips: env.COUNT_ROUND_TRIPS === 'true',
}).catch((error: Error) => {
  console.error(`Could not start the Knap API: ${error.message}`);
  if ('code' in error && error.code === 'EADDRINUSE') console.error('Set PORT or DYNAMODB_PORT to free ports and try again.');
  process.exit(1);
});

console.log(`Knap API listening on ${stack.api.url}`);
console.log(
  external
    ? `DynamoDB: ${external} (table ${tableName})`
    : `Embedded DynamoDB (dynalite): ${stack.dynamodbEndpoint}, data in ${dataDir} (table ${tableName}${stack.createdTable ? ', created' : ''})`,
);
console.log(`
Create a first API client (in another terminal):
  DYNAMODB_ENDPOINT=${stack.dynamodbEndpoint} npm run -s admin -- create-client --org acme --name "My integration"
Then get a token:
  curl -s -X POST ${stack.api.url}/api/oauth/token -d grant_type=client_credentials -d client_id=<id> -d client_secret=<secret>
`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the Knap API...`);
  stack.close().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(`Error while stopping: ${error.message}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
