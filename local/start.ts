/**
 * `npm start`: the Knap API on http://127.0.0.1:$PORT over an embedded DynamoDB that keeps
 * its data in $DATA_DIR, or over $DYNAMODB_ENDPOINT when set.
 */
import './quiet-sdk-warning.js';
import { resolve } from 'node:path';
import { ensureConsoleBuilt } from '../scripts/build-console.js';
import { tableNameFromEnv } from '../shared/runtime.js';
import { badEndpoint, endpointDoesNotAnswer, unreachableReason } from './connection-errors.js';
import { DataDirInUseError } from './dynamodb.js';
import { createAdminCommand } from './oidc/login-page.js';
import { type LocalStack, startLocalStack } from './stack.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const dynamodbPort = Number(env.DYNAMODB_PORT ?? 8000);
const tableName = tableNameFromEnv(env);
const dataDir = resolve(env.DATA_DIR ?? '.data');
const external = env.DYNAMODB_ENDPOINT || undefined;
const endpointProblem = external && badEndpoint(external);
if (endpointProblem) {
  console.error(endpointProblem);
  process.exit(1);
}

/** DISPATCH_INTERVAL_MS: how often the schedule dispatcher runs; 0 never (the benchmark); unset, every second. */
function dispatchInterval(value: string | undefined): number | false | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) {
    console.error(`DISPATCH_INTERVAL_MS must be a whole number of milliseconds (0 turns the dispatcher off), not "${value}"`);
    process.exit(1);
  }
  return ms === 0 ? false : ms;
}

/** What went wrong, in one line: the admin needs the cause, not a stack. */
const startFailure = (error: Error): string => {
  if (error instanceof DataDirInUseError) return error.message;
  const unreachable = external && unreachableReason(error);
  if (unreachable) return `${endpointDoesNotAnswer(external, unreachable)}. Start that DynamoDB, or unset DYNAMODB_ENDPOINT.`;
  const hint = 'code' in error && error.code === 'EADDRINUSE' ? ' Set PORT or DYNAMODB_PORT to free ports and try again.' : '';
  return `Could not start the Knap API: ${error.message.split('\n')[0]}${hint}`;
};

let stack: LocalStack | undefined;
let stopping = false;
const stop = (signal: string) => {
  // Ctrl-C reaches this process twice under npm (from the terminal and forwarded by npm): stop once.
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the Knap API...`);
  // Still starting: nothing serves yet, and LevelDB's log keeps the data folder consistent.
  if (!stack) process.exit(0);
  stack.close().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(`Error while stopping: ${error.message}`);
      process.exit(1);
    },
  );
};
// Before anything starts: a signal that came before the handlers would kill the process
// with its worker's LevelDB open, and one that came after "listening" is printed must stop it.
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

// The console's page and script, from its sources (a no-op when console/dist is current).
await ensureConsoleBuilt();
stack = await startLocalStack({
  port,
  host: env.HOST ?? '127.0.0.1',
  tableName,
  dynamodbEndpoint: external,
  dynamodbPort,
  dataDir,
  accessLog: env.ACCESS_LOG !== 'false',
  countRoundTrips: env.COUNT_ROUND_TRIPS === 'true',
  dispatchIntervalMs: dispatchInterval(env.DISPATCH_INTERVAL_MS),
}).catch((error: Error) => {
  console.error(startFailure(error));
  process.exit(1);
});

console.log(`Knap API listening on ${stack.api.url}`);
console.log(
  external
    ? `DynamoDB: ${external} (table ${tableName})`
    : `Embedded DynamoDB (dynalite): ${stack.dynamodbEndpoint}, data in ${dataDir} (table ${tableName}${stack.createdTable ? ', created' : ''})`,
);
if (stack.resumedRuns > 0) console.log(`Delivering ${stack.resumedRuns} run(s) left pending when the server last stopped`);
console.log(`Admin console: ${stack.api.url}/console`);
console.log(`
Make the first organization admin (in another terminal), then sign in to the console:
  ${createAdminCommand(stack.dynamodbEndpoint)}
Create a first API client (in another terminal):
  DYNAMODB_ENDPOINT=${stack.dynamodbEndpoint} npm run -s admin -- create-client --org acme --name "My integration"
Then get a token:
  curl -s -X POST ${stack.api.url}/api/oauth/token -d grant_type=client_credentials -d client_id=<id> -d client_secret=<secret>
`);
