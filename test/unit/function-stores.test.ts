/**
 * Each Lambda assembles only the stores its routes use (shared/store/table-repository.ts): a
 * route module names them (`stores`), and a method of a store it did not name fails at once.
 * The table access each route is granted (lib/functions.ts, lib/runs.ts) says which item
 * kinds it touches; a route that touches a kind must name that kind's store, and one that
 * only reads items by key names no store it does not use.
 */
import { jobs } from '../../functions/jobs.js';
import { routes } from '../../functions/routes.js';
import { ROUTE_TABLE_ACCESS } from '../../lib/functions.js';
import { JOB_TABLE_ACCESS } from '../../lib/runs.js';
import { KEY_PARTITION, KEY_PREFIX, type KeyScope, type TableAccess } from '../../lib/table-access.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import type { StoreClasses, StoreName } from '../../shared/store/table-repository.js';
import { TableRepository } from '../../shared/store/table-repository.js';

const STORE_OF: Record<KeyScope, StoreName> = {
  [KEY_PREFIX.client]: 'clients',
  [KEY_PREFIX.token]: 'clients',
  [KEY_PREFIX.grant]: 'clients',
  [KEY_PREFIX.revoked]: 'clients',
  [KEY_PREFIX.knap]: 'knaps',
  [KEY_PREFIX.idempotency]: 'idempotency',
  [KEY_PREFIX.run]: 'runs',
  [KEY_PREFIX.webhook]: 'webhooks',
  [KEY_PREFIX.quota]: 'quotas',
  [KEY_PARTITION.audit]: 'admins',
  [KEY_PREFIX.runEvent]: 'runEvents',
  [KEY_PREFIX.reportMeter]: 'runEvents',
  [KEY_PREFIX.streamSlots]: 'runEvents',
  [KEY_PREFIX.adminMeter]: 'admins',
  [KEY_PARTITION.runEvents]: 'runEvents',
  [KEY_PREFIX.delivery]: 'deliveries',
  [KEY_PREFIX.message]: 'deliveries',
  [KEY_PARTITION.deliveries]: 'deliveries',
};

/** The stores of the item kinds an access names (its Query targets aside: an index holds several kinds). */
const storesOfItems = (access: TableAccess): StoreName[] => {
  const scopes = Object.entries(access)
    .filter(([action]) => action !== 'dynamodb:Query')
    .flatMap(([, scopes]) => scopes as KeyScope[]);
  // The audit partition is queried as the table itself, by its pattern.
  const queried = (access['dynamodb:Query'] ?? []).filter((target): target is KeyScope => target in STORE_OF);
  return [...new Set([...scopes, ...queried].map((scope) => STORE_OF[scope] as StoreName))].sort();
};

const withAccess = [
  ...routes.map((route) => ({ id: route.id, entry: route.entry, access: ROUTE_TABLE_ACCESS[route.id] ?? {} })),
  ...jobs.map((job) => ({ id: job.id, entry: job.entry, access: JOB_TABLE_ACCESS[job.id] ?? {} })),
].filter(({ access }) => Object.keys(access).length > 0);

describe('the stores each function is given', () => {
  test.each(withAccess)('$id names the store of every item kind it touches', async ({ entry, access }) => {
    const module = (await import(`../../${entry.replace(/\.ts$/, '.js')}`)) as { stores?: StoreClasses };
    const named = Object.keys(module.stores ?? {}).sort();
    const needed = storesOfItems(access);
    if (access['dynamodb:Query']?.some((target) => !(target in STORE_OF))) {
      // An index query reads kinds the access cannot name: at least the stores of its items.
      expect(named).toEqual(expect.arrayContaining(needed));
    } else {
      expect(named).toEqual(needed);
    }
  });

  test('a store the function was not given fails at once, saying which', async () => {
    const repo = new TableRepository({ send: () => Promise.reject(new Error('no call expected')) }, 'knap', {
      clients: ClientStore,
    });
    expect(() => repo.getKnap('org', 'uuid')).toThrow('This function was not given the knaps store (defaultDeps({ stores }))');
    // Stores added to one repository are its own: the table it was given stays as it was.
    const given: StoreClasses = { clients: ClientStore };
    new TableRepository({ send: () => Promise.reject(new Error('no call expected')) }, 'knap', given).addStores({
      knaps: KnapStore,
    });
    expect(given).toEqual({ clients: ClientStore });
    await expect(repo.getClient('c')).rejects.toThrow('no call expected');
  });
});
