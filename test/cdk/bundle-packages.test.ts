import { jobs } from '../../functions/jobs.js';
import { routes } from '../../functions/routes.js';
import { functionGraph } from './function-graph.js';

/**
 * Every package a bundle holds is parsed at each of its cold starts, used or not: a CommonJS
 * package cannot be tree-shaken, so one import chain too many puts it in every function that
 * shares the chain. Built here as the stack builds the bundles (aliases and chunk names
 * included), the packages that only some routes need are checked to be in those routes only.
 */
let packagesOf: Map<string, Set<string>>;

beforeAll(async () => {
  packagesOf = new Map(
    Object.entries((await functionGraph(true)).outputs)
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, output]) => [
        file.replace(/^out\/|\.js$/g, ''),
        new Set(Object.keys(output.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? [])),
      ]),
  );
}, 60_000);

const functionsWith = (name: string): string[] =>
  [...packagesOf]
    .filter(([, packages]) => packages.has(name))
    .map(([id]) => id)
    .sort();

test('every function was built', () => {
  expect(packagesOf.size).toBe(routes.length + jobs.length);
});

test("ipaddr.js in no function: a webhook URL's address checks match its ranges with Node.js's BlockList (shared/webhooks/addresses.ts)", () => {
  expect(functionsWith('ipaddr.js')).toEqual([]);
});

test('standardwebhooks (signing a delivery): the delivery, a test send, and the OpenAPI document, whose example is signed', () => {
  expect(functionsWith('standardwebhooks')).toEqual(['admin-test-webhook', 'deliver-runs', 'openapi']);
});

test("jose (an organization admin's token, a client's private_key_jwt assertion): the admin routes and the client-authenticating ones", () => {
  expect(functionsWith('jose')).toEqual(
    [
      ...routes.filter((route) => route.id.startsWith('admin-')).map((route) => route.id),
      'introspect-token',
      'revoke-token',
      'token',
    ].sort(),
  );
});
