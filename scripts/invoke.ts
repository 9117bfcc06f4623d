/**
 * `npm run invoke -- <function-id> <event.json>`: runs one Lambda locally, like
 * `sam local invoke` but with no Docker: an in-memory DynamoDB (or DYNAMODB_ENDPOINT), the
 * table, the fixtures of scripts/fixtures.ts, then the function's `handler(event, context)`.
 * The result goes to stdout as JSON; the function's logs and a summary go to stderr.
 *
 *   npm run -s invoke -- token events/token/200-client-credentials.json
 *   npm run -s invoke -- events/list-knaps/200-list.json     (function from the folder)
 *   npm run -s invoke -- dispatch-runs                       (every event of one function, checked)
 *   npm run -s invoke -- --all                               (every event; exit 1 on a mismatch)
 *   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 npm run -s invoke -- --seed
 *                                                            (only seed the fixtures, e.g. for `sam local invoke`)
 *
 * The functions are the routes of functions/routes.ts and the jobs of functions/jobs.ts
 * (dispatch-runs, deliver-runs). A route's event is checked against the status its file name
 * starts with, a job's against what the job returns (see checkJobResult in invoke-core.ts).
 * Runs the functions create are recorded and listed on stderr, never delivered.
 *
 * Exit status: 0 when the function returned (whatever its HTTP status), 1 when the invocation
 * itself threw (or, checking several events, when one gave other than it should), 2 on bad
 * arguments.
 */
import '../local/quiet-sdk-warning.js';
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import {
  FUNCTIONS,
  functionById,
  functionIdOfFile,
  type Invocation,
  type InvokeEnvironment,
  invokeFile,
  listEventFiles,
  PROJECT_ROOT,
  startInvokeEnvironment,
} from './invoke-core.js';

const USAGE = `Usage:
  npm run -s invoke -- <function-id> <event.json>
  npm run -s invoke -- <events/<function-id>/event.json>
  npm run -s invoke -- <function-id>   (every event of the function, checked)
  npm run -s invoke -- --all           (every event of every function, checked)
  npm run -s invoke -- --seed          (seed the fixtures into DYNAMODB_ENDPOINT and stop)
Routes: ${FUNCTIONS.filter((fn) => fn.kind === 'route')
  .map((fn) => fn.id)
  .join(', ')}
Jobs: ${FUNCTIONS.filter((fn) => fn.kind === 'job')
  .map((fn) => fn.id)
  .join(', ')}
Environment: DYNAMODB_ENDPOINT (default: an in-memory dynalite), TABLE_NAME, AWS_REGION, POWERTOOLS_LOG_LEVEL`;

/** `token <- events/...: 200 as expected (19 ms)`; a job's line shows its result instead of a status. */
const describe = (invocation: Invocation): string => {
  const outcome = invocation.fn.kind === 'job' ? JSON.stringify(invocation.result) : String(invocation.status);
  const expectation =
    invocation.fn.kind === 'route' && invocation.expected === null
      ? ''
      : invocation.problem === null
        ? ' as expected'
        : ` ${invocation.problem}`;
  return `${invocation.fn.id} <- ${relative(PROJECT_ROOT, invocation.file)}: ${outcome}${expectation} (${invocation.durationMs.toFixed(0)} ms)`;
};

/** The deliveries an invocation queued, for stderr: the invoke environment records them, delivers none. */
const describeQueued = (invocation: Invocation): string[] =>
  invocation.queued.map(
    ({ runId, delaySeconds }) =>
      `queued for delivery${delaySeconds > 0 ? ` in ${delaySeconds} s` : ''}: ${runId} (recorded, not delivered)`,
  );

type Command =
  | { mode: 'all' }
  | { mode: 'seed' }
  | { mode: 'one'; functionId: string; file: string }
  | { mode: 'function'; functionId: string }
  | { mode: 'help' };

const parseArgs = (args: string[]): Command | string => {
  if (args.includes('--help') || args.includes('-h')) return { mode: 'help' };
  if (args.length === 0) return 'Nothing to invoke: give a function id, an event file, --all or --seed';
  if (args[0] === '--all') return args.length === 1 ? { mode: 'all' } : 'Nothing may follow --all';
  if (args[0] === '--seed') return args.length === 1 ? { mode: 'seed' } : 'Nothing may follow --seed';
  if (args.length === 1) {
    const [arg] = args as [string];
    // A function id (not a file of that name): every event of the function.
    if (FUNCTIONS.some((fn) => fn.id === arg) && !existsSync(arg)) return { mode: 'function', functionId: arg };
    const functionId = functionIdOfFile(arg);
    return functionId ? { mode: 'one', functionId, file: resolve(arg) } : `Cannot tell the function of ${arg}: give its id first`;
  }
  if (args.length === 2) {
    try {
      functionById(args[0]!);
    } catch (error) {
      return (error as Error).message;
    }
    return { mode: 'one', functionId: args[0]!, file: resolve(args[1]!) };
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
        const invocation = await invokeFile(env, parsed.functionId, parsed.file);
        console.log(JSON.stringify(invocation.result, null, 2));
        for (const line of describeQueued(invocation)) console.error(line);
        console.error(describe(invocation));
        return 0;
      } catch (error) {
        console.error(`The invocation threw: ${(error as Error).stack ?? String(error)}`);
        return 1;
      }
    }
    let failures = 0;
    const files = (await listEventFiles()).filter(({ functionId }) => parsed.mode === 'all' || functionId === parsed.functionId);
    for (const { functionId, file } of files) {
      try {
        const invocation = await invokeFile(env, functionId, file);
        if (invocation.problem !== null) failures += 1;
        // Summaries go to stderr, as for one invocation: stdout holds results only.
        console.error(describe(invocation));
      } catch (error) {
        failures += 1;
        console.error(`${functionId} <- ${relative(PROJECT_ROOT, file)}: THREW ${(error as Error).message}`);
      }
    }
    console.error(
      `${files.length - failures}/${files.length} events as expected (routes: the status in the file name; jobs: their result)`,
    );
    return failures === 0 ? 0 : 1;
  } finally {
    await env.close();
  }
};

process.exitCode = await main();
