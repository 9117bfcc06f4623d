/**
 * No client exists without its audit event, even when the server dies mid-write: `npm start`
 * (local/start.ts in its own process, with its embedded DynamoDB) is `kill -9`ed while 50
 * client creations are under way, started again on the same data, and every client the table
 * holds has its `client.create` event.
 */
import { type RunningStack, startStackProcess } from '../../bench/local-server.js';
import type { AuditEvent } from '../../shared/domain/audit.js';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { signIn } from '../support/admin-sign-in.js';

const CREATIONS = 50;
let stack: RunningStack;

beforeAll(async () => {
  stack = await startStackProcess();
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const allEvents = async (orgName: string): Promise<AuditEvent[]> => {
  const events: AuditEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await stack.deps.repo.listAuditEvents(orgName, { limit: 100, cursor });
    events.push(...page.events);
    cursor = page.next ?? undefined;
  } while (cursor);
  return events;
};

test(`kill -9 during ${CREATIONS} concurrent client creations, then a restart: every client has its audit event`, async () => {
  const password = 'a long enough passphrase';
  await createAdmin(stack.deps, { orgName: 'acme', email: 'ada@acme.example', password });
  const { tokens } = await signIn(stack.url, `${stack.url}/console`, 'ada@acme.example', password);
  const token = tokens?.access_token as string;

  let answered = 0;
  let firstAnswer: () => void = () => undefined;
  const first = new Promise<void>((resolve) => {
    firstAnswer = resolve;
  });
  const creations = Array.from({ length: CREATIONS }, (_, index) =>
    fetch(`${stack.url}/api/admin/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Crash ${index}` }),
    }).then((response) => {
      answered += 1;
      firstAnswer();
      return response.status;
    }),
  );
  // The first answer means the others are on their way through the server: kill it then.
  await Promise.race([first, Promise.allSettled(creations)]);
  await stack.crashAndRestart();
  const outcomes = await Promise.allSettled(creations);
  const created = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value === 201).length;

  const clients = (await stack.deps.repo.listClientsByOrg('acme')).filter((client) => client.name.startsWith('Crash '));
  const audited = new Set(
    (await allEvents('acme')).filter((event) => event.action === 'client.create').map((event) => event.target.id),
  );
  const unaudited = clients.filter((client) => !audited.has(client.clientId)).map((client) => client.clientId);
  console.log(
    `${CREATIONS} creations: ${created} answered 201 before the kill (${answered} answers in all); ` +
      `${clients.length} clients in the table, ${unaudited.length} without their audit event; ` +
      `${[...audited].filter((id) => !clients.some((client) => client.clientId === id)).length} events of creations the kill cut short`,
  );
  expect(unaudited).toEqual([]);
  // Every 201 is a client that exists, and the kill did cut some creations short.
  expect(clients.length).toBeGreaterThanOrEqual(created);
  expect(created).toBeLessThan(CREATIONS);
  // The restarted server serves the clients made before the kill.
  const listed = await fetch(`${stack.url}/api/admin/clients`, { headers: { authorization: `Bearer ${token}` } });
  expect([200, 401]).toContain(listed.status);
}, 300_000);
