/**
 * `npm run load [-- --requests 10000 --concurrency 50 --crash-every 2000]`: mixed traffic from
 * several clients against the local stack, then checks what users would: zero 5xx, a 429 only
 * where that client was over its limit in that window, and every Knap that was answered
 * 201 readable afterwards. Exits non-zero on any violation. Not part of `npm test`.
 *
 * `--crash-every n`: after every n answers the server is killed with SIGKILL (`kill -9`, the
 * embedded DynamoDB with it) and started again on the same data, as a crashed `npm start`
 * is. A request cut off by the crash is sent again, as a client would, once the server is
 * back: Knaps are created with an Idempotency-Key, so a creation whose answer was lost is
 * answered again, not made twice. Then each client's Knaps must be exactly those answered
 * 201: none lost, none twice.
 */
import '../local/quiet-sdk-warning.js';
import { parseArgs } from 'node:util';
import { createApiClient } from '../shared/services/admin-service.js';
import { startStackProcess, tokenForm } from './local-server.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '50' },
    'crash-every': { type: 'string', default: '0' },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const crashEvery = Number(values['crash-every']);

interface LoadClient {
  clientId: string;
  clientSecret: string;
  limit: number;
  token: string;
  created: Set<string>;
  /** Per rate window: requests that counted (not 429) and 429s. */
  windows: Map<number, { counted: number; limited: number }>;
  /** Per rate window: requests a crash cut off, which the server may have counted before it died. */
  cutOff: Map<number, number>;
}

const stack = await startStackProcess();
const failures: string[] = [];
try {
  // Four clients far below their limits, one that will hit its limit.
  const limits = [1_000_000, 1_000_000, 1_000_000, 1_000_000, 120];
  const clients: LoadClient[] = [];
  for (const [index, limit] of limits.entries()) {
    const client = await createApiClient(stack.deps, { orgName: `load-${index % 2}`, name: `load ${index}`, rateLimit: limit });
    clients.push({ ...client, limit, token: '', created: new Set(), windows: new Map(), cutOff: new Map() });
  }

  const send = (client: LoadClient, kind: number, index: number): Promise<Response> => {
    if (kind === 0) {
      return fetch(`${stack.url}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: tokenForm(client),
      });
    }
    const auth = { authorization: `Bearer ${client.token}` };
    return kind < 3
      ? fetch(`${stack.url}/api/studio/knap-tools`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `load-${index}` },
          body: JSON.stringify({
            name: `load ${kind}`,
            visibility: kind === 1 ? 'public' : 'private',
            schedule_type: 'scheduled',
            tool_metadata: { schedule_description: 'every weekday at 9am' },
          }),
        })
      : fetch(`${stack.url}/api/studio/knap-tools?limit=5`, { headers: auth });
  };

  const statuses = new Map<number, number>();
  let next = 0;
  let answered = 0;
  let crashes = 0;
  let resent = 0;
  /** The restart under way, which a request cut off by the crash waits for. */
  let restarting: Promise<void> | undefined;
  const crashIfDue = () => {
    answered += 1;
    if (crashEvery > 0 && answered % crashEvery === 0 && !restarting && next < total) {
      crashes += 1;
      restarting = stack.crashAndRestart().finally(() => {
        restarting = undefined;
      });
    }
  };
  /** Sends until answered: a request the crash cut off goes again once the server is back. */
  const answer = async (client: LoadClient, kind: number, index: number): Promise<Response> => {
    let cut = false;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const response = await send(client, kind, index);
        // The creation cut off by the crash holds its key until its lease ends, and a client over
        // its limit is refused before its key is looked up: wait as told, then ask again, since
        // the Knap may exist and only its answer was lost.
        const wait = Number(response.headers.get('retry-after') || response.headers.get('ratelimit-reset'));
        const again = response.status === 409 || (response.status === 429 && cut && kind !== 0 && kind < 3);
        if (again && wait > 0 && attempt < 100) {
          await response.text();
          resent += 1;
          await new Promise((resolve) => setTimeout(resolve, wait * 1000));
          continue;
        }
        return response;
      } catch (error) {
        if (attempt >= 100) throw error;
        cut = true;
        resent += 1;
        const window = Math.floor(Date.now() / 60_000) + 1;
        client.cutOff.set(window, (client.cutOff.get(window) ?? 0) + 1);
        await (restarting ?? new Promise((resolve) => setTimeout(resolve, 100)));
      }
    }
  };
  const started = Date.now();
  const worker = async () => {
    while (next < total) {
      const index = next++;
      const client = clients[index % clients.length] as LoadClient;
      // 0: token, 1-2: create, 3-4: list; a client without a token asks for one first.
      const kind = client.token ? Math.floor(index / clients.length) % 5 : 0;
      const response = await answer(client, kind, index);
      const text = await response.text();
      crashIfDue();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) failures.push(`5xx: ${response.status} ${text}`);
      const reset = Number(response.headers.get('ratelimit-reset'));
      const date = Date.parse(response.headers.get('date') ?? '') / 1000;
      if (Number.isFinite(reset) && Number.isFinite(date)) {
        const window = Math.round((date + reset) / 60);
        const tally = client.windows.get(window) ?? { counted: 0, limited: 0 };
        if (response.status === 429) tally.limited += 1;
        else tally.counted += 1;
        client.windows.set(window, tally);
      }
      if (response.status === 200 && kind === 0) client.token = (JSON.parse(text) as { access_token: string }).access_token;
      if (response.status === 201) client.created.add((JSON.parse(text) as { uuid: string }).uuid);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (Date.now() - started) / 1000;

  for (const client of clients) {
    for (const [window, tally] of client.windows) {
      // A request cut off by a crash may have been counted with its answer lost (the minute may
      // turn between the count and the cut).
      const uncertain = [window - 1, window, window + 1].reduce((sum, at) => sum + (client.cutOff.get(at) ?? 0), 0);
      if (tally.limited > 0 && tally.counted + uncertain < client.limit) {
        failures.push(
          `${client.clientId} got ${tally.limited} 429s in window ${window} after only ${tally.counted} counted requests (limit ${client.limit})`,
        );
      }
      if (tally.counted > client.limit)
        failures.push(`${client.clientId} passed ${tally.counted} requests in window ${window}, over its limit ${client.limit}`);
    }
  }

  // Every Knap answered 201 must be stored for its creator: read straight from the table,
  // since the limited client may still be over its limit.
  let readable = 0;
  let expected = 0;
  for (const client of clients) {
    expected += client.created.size;
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await stack.deps.repo.listKnapsByCreator(client.clientId, { limit: 100, cursor });
      for (const knap of page.knaps) seen.add(knap.uuid);
      cursor = page.next ?? undefined;
    } while (cursor);
    for (const uuid of client.created) {
      if (seen.has(uuid)) readable += 1;
      else failures.push(`Knap ${uuid} of ${client.clientId} was created (201) but is not listed`);
    }
    for (const uuid of seen) {
      if (!client.created.has(uuid)) failures.push(`Knap ${uuid} of ${client.clientId} is stored but was never answered 201`);
    }
  }

  console.log(
    `\n${total} requests, concurrency ${concurrency}, ${clients.length} clients, ${seconds.toFixed(1)} s (${Math.round(total / seconds)} req/s)`,
  );
  console.table(
    Object.fromEntries([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => [status, { responses: count }])),
  );
  console.log(
    `429s: ${statuses.get(429) ?? 0}, all from the client limited to ${limits.at(-1)}/min; Knaps created: ${expected}, readable afterwards: ${readable}`,
  );
  if (crashEvery > 0) console.log(`kill -9 and restart: ${crashes} times; requests sent again after a crash: ${resent}`);
} finally {
  await stack.stop();
}
if (failures.length > 0) {
  console.error(`\n${failures.length} violation(s):\n${failures.slice(0, 20).join('\n')}`);
  process.exit(1);
}
console.log('No violations.');
