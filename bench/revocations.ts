/**
 * `npm run bench:revocations [-- --revocations 10000 --concurrency 8 --sample-every 100
 *   --rounds 5 --requests 200 --storages dynalite,dynamodb-local]`
 *
 * Shows that revoking tokens does not grow the client item that every request reads and
 * rewrites (the metering UpdateItem), so a client that revokes a lot stays as fast as a fresh
 * one. Earlier versions marked each revocation on the client item (~29 bytes each): after
 * thousands, that client's requests were 9-13x slower and its revokes answered 500.
 *
 * For each storage, dynalite (in memory, in a process of its own) and Amazon's DynamoDB Local
 * (in memory, `java`), the project (`npm start` with DYNAMODB_ENDPOINT, in its own process),
 * two clients with a limit far above what the run reaches (a "revoker" and a fresh "peer"), then:
 *
 * 1. the revoker's client item size (as DynamoDB counts it, see `itemBytes`) and the item count;
 * 2. N cycles, `--concurrency` at a time: client_credentials grant, then revoke (RFC 7009) the
 *    access token (even cycles) or the refresh token (odd cycles, which ends the grant and the
 *    access tokens it issued). Every revoke must answer 200. Two cycles in every `--sample-every`
 *    are checked: the revoked cycle's access token must get 401 on GET /api/studio/knap-tools
 *    and, for a revoked refresh token, a refresh_token grant must answer 401 (the project's
 *    documented answer to an invalid refresh token, docs/api.md);
 * 3. after the revocations, GET /api/studio/knap-tools with a live access token of the revoker
 *    and of the peer, in alternating rounds of `--requests` sequential requests each: p50 and
 *    p90 per side (all rounds pooled) and the ratio revoker/peer (median of per-round ratios);
 * 4. the revoker's client item size and the item count again.
 *
 * Prints one Markdown table per storage. Exits 1 if a goal fails: the client item grew by more
 * than 1 KB, a revoke answered other than 200, a sampled revoked token was still accepted, or
 * the p50 ratio revoker/peer is above 1.3. Only localhost; every loop is bounded; every
 * process it starts is stopped (the stack's temporary data folder goes with it).
 */
import '../local/quiet-sdk-warning.js';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { freePort } from '../local/ports.js';
import { startDynamoDbLocal } from '../scripts/dynamodb-local.js';
import { createApiClient } from '../shared/services/admin-service.js';
import { GetCommand, ScanCommand } from '../shared/store/commands.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { key } from '../shared/store/keys.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';
import { type RunningStack, startStackProcess, tokenForm } from './local-server.js';
import { startDynaliteProcess } from './processes.js';

const { values } = parseArgs({
  options: {
    revocations: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '8' },
    'sample-every': { type: 'string', default: '100' },
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '200' },
    storages: { type: 'string', default: 'dynalite,dynamodb-local' },
  },
});
const positive = (name: string, value: string | undefined): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a whole number above 0, not "${value}"`);
  return number;
};
const revocations = positive('revocations', values.revocations);
const concurrency = positive('concurrency', values.concurrency);
const sampleEvery = positive('sample-every', values['sample-every']);
const rounds = positive('rounds', values.rounds);
const requestsPerRound = positive('requests', values.requests);
const storages = (values.storages as string).split(',').map((name) => name.trim());
for (const storage of storages) {
  if (storage !== 'dynalite' && storage !== 'dynamodb-local') throw new Error(`unknown storage "${storage}"`);
}
const command = `npm run bench:revocations${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;

/** The goals. */
const MAX_CLIENT_GROWTH_BYTES = 1024;
const MAX_LATENCY_RATIO = 1.3;
/** No request of the bench may hang the run. */
const REQUEST_TIMEOUT_MS = 30_000;

/** Set by SIGINT or SIGTERM: the loops stop early and the processes are stopped. */
let interrupted = false;

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * An item's size as DynamoDB bills and limits it (400 KB): for each attribute, its name's UTF-8
 * bytes plus its value's: a string its UTF-8 bytes, a number ceil(significant digits / 2) + 1, a
 * binary its bytes, a boolean or null 1, a set the sum of its members, a map or list 3 plus each
 * element (plus 1 byte per element, and a map's keys). An approximation of AWS's documented rules.
 */
const valueBytes = (value: AttributeValue): number => {
  const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');
  const number = (text: string) => Math.ceil(text.replace(/^[-+]?0*|[.eE].*$/g, '').length / 2) + 1;
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return number(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, member) => sum + utf8(member), 0);
  if (value.NS) return value.NS.reduce((sum, member) => sum + number(member), 0);
  if (value.BS) return value.BS.reduce((sum, member) => sum + member.length, 0);
  if (value.L) return 3 + value.L.reduce((sum, element) => sum + 1 + valueBytes(element), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueBytes(element), 0);
  return 0;
};
const itemBytes = (item: Record<string, unknown>): number =>
  Object.entries(marshall(item, { removeUndefinedValues: true })).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name, 'utf8') + valueBytes(value),
    0,
  );

const percentile = (numbers: number[], p: number): number => {
  if (numbers.length === 0) return Number.NaN;
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
};
const median = (numbers: number[]): number => percentile(numbers, 50);
const round2 = (value: number): number => Math.round(value * 100) / 100;

interface Tokens {
  access_token: string;
  refresh_token: string;
}

interface Client {
  clientId: string;
  clientSecret: string;
}

interface StorageResult {
  storage: string;
  revocations: number;
  grantFailures: number;
  non200Revokes: number;
  revokeStatuses: Record<string, number>;
  samples: number;
  samples401: number;
  refreshSamples: number;
  refreshSamplesRefused: number;
  clientBytesBefore: number;
  clientBytesAfter: number;
  itemsBefore: number;
  itemsAfter: number;
  revokeP50FirstMs: number;
  revokeP50LastMs: number;
  revocationSeconds: number;
  revoker: { p50: number; p90: number };
  peer: { p50: number; p90: number };
  ratioP50: number;
  ratioP90: number;
  elapsedSeconds: number;
}

const runStorage = async (storage: string): Promise<StorageResult> => {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  const stops: (() => Promise<void>)[] = [];
  try {
    let endpoint: string;
    if (storage === 'dynalite') {
      const dynalite = await startDynaliteProcess();
      stops.push(dynalite.stop);
      endpoint = dynalite.endpoint;
    } else {
      const local = await startDynamoDbLocal(await freePort());
      stops.push(local.stop);
      endpoint = local.endpoint;
    }
    // The dispatcher off: no schedules here, and its queries would only add noise.
    const stack: RunningStack = await startStackProcess({ DISPATCH_INTERVAL_MS: '0' }, { dynamodbEndpoint: endpoint });
    stops.push(stack.stop);
    const documents = createDocumentClient({ endpoint });
    stops.push(async () => documents.destroy());

    const countItems = async (): Promise<number> => {
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await documents.send(
          new ScanCommand({ TableName: DEFAULT_TABLE_NAME, Select: 'COUNT', ExclusiveStartKey: start, ConsistentRead: true }),
        );
        count += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return count;
    };
    const clientBytes = async (clientId: string): Promise<number> => {
      const { Item } = await documents.send(
        new GetCommand({ TableName: DEFAULT_TABLE_NAME, Key: key.client(clientId), ConsistentRead: true }),
      );
      if (!Item) throw new Error(`no client item for ${clientId}`);
      return itemBytes(Item);
    };

    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${stack.url}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const grant = async (client: Client): Promise<Tokens> => {
      const response = await call('/api/oauth/token', { method: 'POST', headers: formHeaders, body: tokenForm(client) });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`token grant answered ${response.status}: ${body.slice(0, 200)}`);
      return JSON.parse(body) as Tokens;
    };
    const revoke = async (client: Client, token: string): Promise<number> => {
      const form = new URLSearchParams({ token, client_id: client.clientId, client_secret: client.clientSecret });
      const response = await call('/api/oauth/revoke', { method: 'POST', headers: formHeaders, body: form.toString() });
      await response.arrayBuffer();
      return response.status;
    };
    const listKnaps = async (accessToken: string): Promise<number> => {
      const response = await call('/api/studio/knap-tools', { headers: { authorization: `Bearer ${accessToken}` } });
      await response.arrayBuffer();
      return response.status;
    };
    const refreshGrant = async (client: Client, refreshToken: string): Promise<number> => {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      });
      const response = await call('/api/oauth/token', { method: 'POST', headers: formHeaders, body: form.toString() });
      await response.arrayBuffer();
      return response.status;
    };

    // A limit far above what the run can reach: this measures revocation, not the limiter's 429s.
    const revoker = await createApiClient(stack.deps, { orgName: 'bench', name: 'revoker', rateLimit: 1_000_000 });
    const peer = await createApiClient(stack.deps, { orgName: 'bench', name: 'peer', rateLimit: 1_000_000 });
    // One request each first, so both items carry the metering attributes before they are weighed.
    for (const client of [revoker, peer]) {
      const status = await listKnaps((await grant(client)).access_token);
      if (status !== 200) throw new Error(`GET /api/studio/knap-tools answered ${status} to a live token`);
    }
    const clientBytesBefore = await clientBytes(revoker.clientId);
    const itemsBefore = await countItems();
    process.stderr.write(
      `${storage}: client item ${clientBytesBefore} bytes, ${itemsBefore} items; ${revocations} revocations...\n`,
    );

    // 2. The revocations.
    const revokeStatuses: Record<string, number> = {};
    const revokeMs: number[] = new Array(revocations);
    let grantFailures = 0;
    let samples = 0;
    let samples401 = 0;
    let refreshSamples = 0;
    let refreshSamplesRefused = 0;
    let next = 0;
    let done = 0;
    const revocationStarted = process.hrtime.bigint();
    const worker = async () => {
      while (next < revocations && !interrupted) {
        const index = next;
        next += 1;
        let tokens: Tokens;
        try {
          tokens = await grant(revoker);
        } catch (error) {
          grantFailures += 1;
          process.stderr.write(`cycle ${index}: ${(error as Error).message}\n`);
          continue;
        }
        const kind = index % 2 === 0 ? 'access' : 'refresh';
        const before = process.hrtime.bigint();
        const status = await revoke(revoker, kind === 'access' ? tokens.access_token : tokens.refresh_token).catch(() => 0);
        revokeMs[index] = Number(process.hrtime.bigint() - before) / 1e6;
        revokeStatuses[status] = (revokeStatuses[status] ?? 0) + 1;
        if (index % sampleEvery < 2) {
          samples += 1;
          // Revoking the refresh token ends its grant, and with it the access token it came with.
          if ((await listKnaps(tokens.access_token).catch(() => 0)) === 401) samples401 += 1;
          if (kind === 'refresh') {
            refreshSamples += 1;
            if ((await refreshGrant(revoker, tokens.refresh_token).catch(() => 0)) === 401) refreshSamplesRefused += 1;
          }
        }
        done += 1;
        if (done % 1000 === 0) {
          const rate = done / (Number(process.hrtime.bigint() - revocationStarted) / 1e9);
          process.stderr.write(`${storage}: ${done}/${revocations} revocations (${Math.round(rate)}/s)\n`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const revocationSeconds = Number(process.hrtime.bigint() - revocationStarted) / 1e9;
    const tenth = Math.max(1, Math.floor(revocations / 10));
    const timed = (slice: number[]) => median(slice.filter((ms) => ms !== undefined));

    // 3. Latency of a live token of the revoker vs. the peer's, alternating rounds.
    const live = { revoker: (await grant(revoker)).access_token, peer: (await grant(peer)).access_token };
    const latencies = { revoker: [] as number[], peer: [] as number[] };
    const perRound = { revoker: [] as { p50: number; p90: number }[], peer: [] as { p50: number; p90: number }[] };
    const measure = async (side: 'revoker' | 'peer', requests: number, keep: boolean) => {
      const times: number[] = [];
      for (let i = 0; i < requests && !interrupted; i += 1) {
        const before = process.hrtime.bigint();
        const status = await listKnaps(live[side]);
        times.push(Number(process.hrtime.bigint() - before) / 1e6);
        if (status !== 200) throw new Error(`GET /api/studio/knap-tools answered ${status} to the ${side}'s live token`);
      }
      if (keep) {
        latencies[side].push(...times);
        perRound[side].push({ p50: median(times), p90: percentile(times, 90) });
      }
    };
    // Warm-up: both paths hot before anything is timed.
    await measure('revoker', 50, false);
    await measure('peer', 50, false);
    for (let index = 0; index < rounds && !interrupted; index += 1) {
      // Alternate who goes first, so a drift of the machine's load favours neither.
      const order = index % 2 === 0 ? (['revoker', 'peer'] as const) : (['peer', 'revoker'] as const);
      for (const side of order) await measure(side, requestsPerRound, true);
      const [r, p] = [perRound.revoker[index], perRound.peer[index]];
      process.stderr.write(
        `${storage}: round ${index + 1}/${rounds} p50 revoker ${r?.p50.toFixed(2)} ms, peer ${p?.p50.toFixed(2)} ms\n`,
      );
    }
    const pairedRatio = (pick: (round: { p50: number; p90: number }) => number) =>
      round2(median(perRound.revoker.map((round, index) => pick(round) / pick(perRound.peer[index] as typeof round))));

    // 4. After.
    const clientBytesAfter = await clientBytes(revoker.clientId);
    const itemsAfter = await countItems();
    const non200Revokes = Object.entries(revokeStatuses).reduce((sum, [status, n]) => sum + (status === '200' ? 0 : n), 0);
    return {
      storage,
      revocations,
      grantFailures,
      non200Revokes,
      revokeStatuses,
      samples,
      samples401,
      refreshSamples,
      refreshSamplesRefused,
      clientBytesBefore,
      clientBytesAfter,
      itemsBefore,
      itemsAfter,
      revokeP50FirstMs: round2(timed(revokeMs.slice(0, tenth))),
      revokeP50LastMs: round2(timed(revokeMs.slice(-tenth))),
      revocationSeconds: round2(revocationSeconds),
      revoker: { p50: round2(percentile(latencies.revoker, 50)), p90: round2(percentile(latencies.revoker, 90)) },
      peer: { p50: round2(percentile(latencies.peer, 50)), p90: round2(percentile(latencies.peer, 90)) },
      ratioP50: pairedRatio((round) => round.p50),
      ratioP90: pairedRatio((round) => round.p90),
      elapsedSeconds: round2(seconds()),
    };
  } finally {
    // The stack first (it uses the storage), then the storage.
    for (const stop of stops.reverse()) await stop().catch((error: Error) => console.error(`cleanup: ${error.message}`));
  }
};

const failures = (result: StorageResult): string[] => {
  const failed: string[] = [];
  const growth = result.clientBytesAfter - result.clientBytesBefore;
  if (growth > MAX_CLIENT_GROWTH_BYTES) failed.push(`client item grew by ${growth} bytes (> ${MAX_CLIENT_GROWTH_BYTES})`);
  if (result.non200Revokes > 0) failed.push(`${result.non200Revokes} revokes answered other than 200`);
  if (result.grantFailures > 0) failed.push(`${result.grantFailures} token grants failed`);
  if (result.samples401 !== result.samples) failed.push(`${result.samples - result.samples401} sampled revoked tokens not 401`);
  if (result.refreshSamplesRefused !== result.refreshSamples) {
    failed.push(`${result.refreshSamples - result.refreshSamplesRefused} revoked refresh tokens still granted`);
  }
  if (!(result.ratioP50 <= MAX_LATENCY_RATIO))
    failed.push(`p50 ratio revoker/fresh ${result.ratioP50}x (> ${MAX_LATENCY_RATIO}x)`);
  return failed;
};

const printTable = (result: StorageResult, failed: string[]): void => {
  const growth = result.clientBytesAfter - result.clientBytesBefore;
  const itemsAdded = result.itemsAfter - result.itemsBefore;
  const statuses = Object.entries(result.revokeStatuses)
    .map(([status, n]) => `${n} x ${status === '0' ? 'no answer' : status}`)
    .join(', ');
  const rows: [string, string][] = [
    ['revocations (access and refresh tokens alternating)', String(result.revocations)],
    ['non-200 revokes', `${result.non200Revokes} (${statuses})`],
    ['failed token grants', String(result.grantFailures)],
    ['sampled revoked tokens answered 401', `${result.samples401}/${result.samples}`],
    ['sampled revoked refresh tokens refused (401)', `${result.refreshSamplesRefused}/${result.refreshSamples}`],
    [
      'revoker client item bytes before / after',
      `${result.clientBytesBefore} / ${result.clientBytesAfter} (${growth >= 0 ? '+' : ''}${growth})`,
    ],
    [
      'table items before / after',
      `${result.itemsBefore} / ${result.itemsAfter} (+${itemsAdded}, ${round2(itemsAdded / result.revocations)} per revocation)`,
    ],
    ['revoke p50, first / last tenth of the cycles (ms)', `${result.revokeP50FirstMs} / ${result.revokeP50LastMs}`],
    [
      'revocation phase (s)',
      `${result.revocationSeconds} (${Math.round(result.revocations / result.revocationSeconds)} cycles/s)`,
    ],
    ['GET /api/studio/knap-tools p50 revoker / fresh (ms)', `${result.revoker.p50} / ${result.peer.p50}`],
    ['GET /api/studio/knap-tools p90 revoker / fresh (ms)', `${result.revoker.p90} / ${result.peer.p90}`],
    ['ratio revoker/fresh p50 (goal <= 1.3x) / p90', `${result.ratioP50}x / ${result.ratioP90}x`],
    ['elapsed (s)', String(result.elapsedSeconds)],
    ['goals', failed.length === 0 ? 'all met' : `FAILED: ${failed.join('; ')}`],
  ];
  console.log(`\n| ${result.storage} | |`);
  console.log('|---|---|');
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
};

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // The `finally` of the storage under way stops its processes; a second signal ends at once.
    interrupted = true;
    process.stderr.write(`${signal}: stopping after cleanup\n`);
    process.once(signal, () => process.exit(130));
  });
}

const results: { result: StorageResult; failed: string[] }[] = [];
let status = 0;
for (const storage of storages) {
  if (interrupted) break;
  try {
    const result = await runStorage(storage);
    results.push({ result, failed: failures(result) });
  } catch (error) {
    console.error(`${storage}: ${(error as Error).stack ?? error}`);
    status = 1;
  }
}

console.log(`\n$ ${command}`);
console.log(
  `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ${revocations} grant+revoke cycles, ${concurrency} at a time; ` +
    `latency: ${rounds} alternating rounds x ${requestsPerRound} sequential GET /api/studio/knap-tools per client (after 50 each to warm up). ` +
    'Client item bytes as DynamoDB counts them (attribute names + values; a number ceil(digits/2)+1). ' +
    'p50/p90 pooled over the rounds; ratios are the median of the per-round ratios.',
);
for (const { result, failed } of results) {
  printTable(result, failed);
  if (failed.length > 0) status = 1;
}
if (results.length < storages.length) status = 1;
process.exit(interrupted ? 130 : status);
