/**
 * `npm run bench [-- --duration 10 --connections 10 --out bench/results.json]`
 *
 * Starts the local stack on free ports, then drives it with autocannon and prints
 * requests/s, p50, p99 and errors for a token grant, an authenticated Knap create and the
 * list, with the DynamoDB round trips each request makes (counted by an SDK middleware in
 * the server and reported per response), and each Lambda bundle's size and cold import time.
 */
import '../local/quiet-sdk-warning.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createApiClient } from '../shared/services/admin-service.js';
import { measureBundles } from './bundles.js';
import { startStackProcess, tokenForm } from './local-server.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    out: { type: 'string', default: 'bench/results.json' },
    'skip-bundles': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const stack = await startStackProcess({ COUNT_ROUND_TRIPS: 'true' });
try {
  // A limit far above what the run can reach: this measures the API, not the limiter's 429s.
  const client = await createApiClient(stack.deps, { orgName: 'bench', name: 'bench', rateLimit: 1_000_000 });
  const form = tokenForm(client);
  const tokenResponse = await fetch(`${stack.url}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const bearer = { authorization: `Bearer ${token}` };

  const scenarios: Scenario[] = [
    {
      name: 'token grant (client_credentials)',
      method: 'POST',
      path: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    },
    {
      name: 'create Knap (scheduled)',
      method: 'POST',
      path: '/api/studio/knap-tools',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        schedule_type: 'scheduled',
        visibility: 'public',
        tool_metadata: { schedule_description: 'every weekday at 9am' },
      }),
    },
    { name: 'list Knaps (limit=20)', method: 'GET', path: '/api/studio/knap-tools?limit=20', headers: bearer },
  ];

  const roundTrips = async (scenario: Scenario): Promise<number> => {
    const counts: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(stack.url + scenario.path, {
        method: scenario.method,
        headers: scenario.headers,
        body: scenario.body,
      });
      await response.arrayBuffer();
      counts.push(Number(response.headers.get('x-dynamodb-round-trips')));
    }
    return counts.reduce((sum, count) => sum + count, 0) / counts.length;
  };

  const rows = [];
  for (const scenario of scenarios) {
    const trips = await roundTrips(scenario);
    const result = await autocannon({
      url: stack.url + scenario.path,
      method: scenario.method,
      headers: scenario.headers,
      body: scenario.body,
      connections,
      duration,
    });
    rows.push({
      scenario: scenario.name,
      requests_per_second: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      requests: result.requests.total,
      errors: result.errors + result.timeouts + result.non2xx,
      dynamodb_round_trips: trips,
    });
  }

  const bundles = values['skip-bundles'] ? [] : await measureBundles();
  const report = {
    when: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    settings: { duration_s: duration, connections },
    scenarios: rows,
    bundles,
  };

  console.log(
    `\nKnap API on the local stack (dynalite), ${connections} connections, ${duration} s each, ${report.machine.cpus} cores\n`,
  );
  console.table(rows);
  if (bundles.length > 0) console.table(bundles);
  mkdirSync(dirname(values.out as string), { recursive: true });
  writeFileSync(values.out as string, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Written to ${values.out}`);
} finally {
  await stack.stop();
}
