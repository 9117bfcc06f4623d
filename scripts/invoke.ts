/**
 * `npm run invoke -- <function-id> <event.json>`: runs one Lambda locally, like
 * `sam local invoke` but with no Docker: an in-memory DynamoDB (or DYNAMODB_ENDPOINT), the
 * table, the fixtures of scripts/fixtures.ts, then the function's `handler(event, context)`.
 * The result goes to stdout as JSON; the function's logs and a summary go to stderr.
 *
 *   npm run -s invoke -- token events/token/200-client-credentials.json
 *   npm run -s invoke -- events/list-knaps/200-list.json     (function from the folder)
 *   npm run -s invoke -- --all                               (every event; exit 1 on a status mismatch)
 *   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 npm run -s invoke -- --seed
 *                                                            (only seed the fixtures, e.g. for `sam local invoke`)
 *
 * Exit status: 0 when the function returned (whatever its HTTP status), 1 when the invocation
 * itself threw (or, with --all, when a status differs from the file name), 2 on bad arguments.
 */
import '../local/quiet-sdk-warning.js';
import { relative, resolve } from 'node:path';
import { routes } from '../functions/routes.js';
import {
  type Invocation,
  type InvokeEnvironment,
  invokeFile,
  listEventFiles,
  PROJECT_ROOT,
  routeById,
  routeIdOfFile,
  startInvokeEnvironment,
} from './invoke-core.js';

const USAGE = `Usage:
  npm run -s invoke -- <function-id> <event.json>
  npm run -s invoke -- <events/<function-id>/event.json>
  npm run -s invoke -- --all
  npm run -s invoke -- --seed      (seed the fixtures into DYNAMODB_ENDPOINT and stop)
Function ids: ${routes.map((route) => route.id).join(', ')}
Environment: DYNAMODB_ENDPOINT (default: an in-memory dynalite), TABLE_NAME, AWS_REGION, POWERTOOLS_LOG_LEVEL`;

const describe = (invocation: Invocation): string => {
  const expectation =
    invocation.expected === null
      ? ''
      : invocation.expected === invocation.status
        ? ' as expected'
        : ` EXPECTED ${invocation.expected}`;
  return `${invocation.route.id} <- ${relative(PROJECT_ROOT, invocation.file)}: ${invocation.status}${expectation} (${invocation.durationMs.toFixed(0)} ms)`;
};

type Command = { mode: 'all' } | { mode: 'seed' } | { mode: 'one'; routeId: string; file: string } | { mode: 'help' };

const parseArgs = (args: string[]): Command | string => {
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) return { mode: 'help' };
  if (args[0] === '--all') return args.length === 1 ? { mode: 'all' } : 'Nothing may follow --all';
  if (args[0] === '--seed') return args.length === 1 ? { mode: 'seed' } : 'Nothing may follow --seed';
  if (args.length === 1) {
    const routeId = routeIdOfFile(args[0]!);
    return routeId
      ? { mode: 'one', routeId, file: resolve(args[0]!) }
      : `Cannot tell the function of ${args[0]}: give its id first`;
  }
  if (args.length === 2) {
    try {
      routeById(args[0]!);
    } catch (error) {
      return (error as Error).message;
    }
    return { mode: 'one', routeId: args[0]!, file: resolve(args[1]!) };
  }
  return 'Too many arguments';
};

const main = async (): Promise<number> => {
  const parsed = parseArgs(process.argv.slice(2));
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.mode === 'help') {
    console.error(USAGE);
    return 0;
  }
  if (parsed.mode === 'seed' && !process.env.DYNAMODB_ENDPOINT) {
    console.error('--seed needs DYNAMODB_ENDPOINT (an in-memory DynamoDB would vanish on exit)');
    return 2;
  }
  let env: InvokeEnvironment;
  try {
    env = await startInvokeEnvironment();
  } catch (error) {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    console.error(`Could not prepare DynamoDB${endpoint ? ` at ${endpoint}` : ''}: ${(error as Error).message}`);
    return 1;
  }
  console.error(`DynamoDB ${env.endpoint}, table ${env.tableName}, fixtures seeded`);
  try {
    if (parsed.mode === 'seed') return 0;
    if (parsed.mode === 'one') {
      try {
        const invocation = await invokeFile(env, parsed.routeId, parsed.file);
        console.log(JSON.stringify(invocation.result, null, 2));
        console.error(describe(invocation));
        return 0;
      } catch (error) {
        console.error(`The invocation threw: ${(error as Error).stack ?? String(error)}`);
        return 1;
      }
    }
    let failures = 0;
    const files = await listEventFiles();
    for (const { routeId, file } of files) {
      try {
        const invocation = await invokeFile(env, routeId, file);
        if (invocation.expected !== invocation.status) failures += 1;
        console.log(describe(invocation));
      } catch (error) {
        failures += 1;
        console.log(`${routeId} <- ${relative(PROJECT_ROOT, file)}: THREW ${(error as Error).message}`);
      }
    }
    console.log(`${files.length - failures}/${files.length} events gave the status their name says`);
    return failures === 0 ? 0 : 1;
  } finally {
    await env.close();
  }
};

process.exitCode = await main();
