/**
 * `npm run bench -- --wire`: what one DynamoDB call costs the calling process, through the
 * SDK (`DYNAMODB_TRANSPORT=sdk`) and over DynamoWire (the default), with the same document
 * client, the same commands and the same dynalite (its own process, not counted). Alternating
 * rounds; the calls of a token grant (the metering UpdateItem, the grant PutItem) and of a
 * 50-Knap listing (a Query), 10 in flight at a time as under load.
 */

import { ensureTable } from '../local/ensure-table.js';
import { PutCommand, QueryCommand, UpdateCommand } from '../shared/store/commands.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { createDynamoClient } from '../shared/store/dynamo-sdk.js';
import { startDynaliteProcess } from './processes.js';

type Client = ReturnType<typeof createDocumentClient>;
const TABLE = 'wire-bench';

const calls: Record<string, (db: Client, n: number) => Promise<unknown>> = {
  'UpdateItem (meter, ALL_NEW)': (db, n) =>
    db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: `CLIENT#${n % 10}`, sk: 'META' },
        UpdateExpression: 'SET last_used_at = :now ADD rl_count :one',
        ExpressionAttributeValues: { ':now': new Date().toISOString(), ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  'PutItem (grant)': (db, n) =>
    db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          pk: `GRANT#${n}-${Math.random()}`,
          sk: 'GRANT',
          client_id: 'bench',
          generation: 1,
          scope: 'knaps:read',
          expires_at: n,
        },
      }),
    ),
  'Query (50 items)': (db) =>
    db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'LIST' },
        Limit: 50,
      }),
    ),
};

const cpuPerCall = async (db: Client, call: (db: Client, n: number) => Promise<unknown>, count: number): Promise<number> => {
  let next = 0;
  const started = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) await call(db, next++);
    }),
  );
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / count;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export const runWireBench = async (options: { rounds: number; calls: number }, command: string) => {
  const dynalite = await startDynaliteProcess();
  try {
    await ensureTable(createDynamoClient({ endpoint: dynalite.endpoint }), TABLE);
    const clients = {
      sdk: createDocumentClient({ endpoint: dynalite.endpoint, transport: 'sdk' }),
      wire: createDocumentClient({ endpoint: dynalite.endpoint, transport: 'wire' }),
    };
    for (let index = 0; index < 50; index += 1) {
      await clients.sdk.send(
        new PutCommand({ TableName: TABLE, Item: { pk: 'LIST', sk: `K#${index}`, name: `Knap ${index}`, n: index } }),
      );
    }
    const rows: string[][] = [];
    for (const [name, call] of Object.entries(calls)) {
      const samples = { sdk: [] as number[], wire: [] as number[] };
      for (const side of ['sdk', 'wire'] as const) await cpuPerCall(clients[side], call, 200); // warm-up
      for (let round = 0; round < options.rounds; round += 1) {
        const order = round % 2 === 0 ? (['sdk', 'wire'] as const) : (['wire', 'sdk'] as const);
        for (const side of order) samples[side].push(await cpuPerCall(clients[side], call, options.calls));
      }
      const ratios = samples.wire.map((wire, round) => wire / (samples.sdk[round] as number));
      rows.push([name, median(samples.sdk).toFixed(3), median(samples.wire).toFixed(3), `${median(ratios).toFixed(2)}x`]);
    }
    clients.sdk.destroy();
    clients.wire.destroy();
    console.log(`\n$ ${command}`);
    console.log(
      `${options.rounds} alternating rounds x ${options.calls} calls, 10 in flight; Node ${process.version}; dynalite in its own process\n`,
    );
    console.log('| client CPU per call (ms) | SDK | DynamoWire | wire/SDK |');
    console.log('|---|---|---|---|');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    console.log('\nMedians over the rounds; the ratio is the median of the per-round ratios.');
    return rows;
  } finally {
    await dynalite.stop();
  }
};
