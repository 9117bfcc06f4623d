import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import * as table from '../../functions/routes.js';
import { routeTableSource } from '../../scripts/bundle-function.mjs';

/**
 * The bundles carry the route table without its prose (scripts/bundle-function.mjs): what is
 * left must route exactly as the whole table does, and no description may survive.
 */
let bundled: typeof table;
let dir: string;

beforeAll(async () => {
  const source = routeTableSource(readFileSync('functions/routes.ts', 'utf8'));
  expect(source).not.toMatch(/^\s+(description|entry|assets):/m);
  const { code } = await transform(source, { loader: 'ts', format: 'esm' });
  dir = mkdtempSync(join(tmpdir(), 'route-table-'));
  writeFileSync(join(dir, 'routes.mjs'), code);
  bundled = (await import(pathToFileURL(join(dir, 'routes.mjs')).href)) as typeof table;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const routing = (route: table.RouteDefinition) => ({ id: route.id, fn: route.fn, method: route.method, path: route.path });

test('every route keeps its id, function, method and path, in order, and nothing else', () => {
  expect(bundled.routes.map(routing)).toEqual(table.routes.map(routing));
  for (const route of bundled.routes) expect(Object.keys(route).sort()).toEqual(['fn', 'id', 'method', 'path']);
  expect(bundled.FUNCTIONS.map((fn) => ({ id: fn.id, greedy: fn.greedy }))).toEqual(
    table.FUNCTIONS.map((fn) => ({ id: fn.id, greedy: fn.greedy })),
  );
});

test.each([
  ['GET', '/api/studio/knap-tools/abc'],
  ['POST', '/api/admin/webhooks/we_1/recover'],
  ['PATCH', '/api/admin/clients/c%2F1'],
  ['DELETE', '/api/nowhere'],
])('%s %s finds the same route and parameters', (method, path) => {
  const found = (module: typeof table) => {
    const hit = module.routeFor(method, path);
    return hit ? { id: hit.route.id, parameters: hit.parameters } : null;
  };
  expect(found(bundled)).toEqual(found(table));
  expect(bundled.routesOn(path).map(({ route }) => route.id)).toEqual(table.routesOn(path).map(({ route }) => route.id));
});
