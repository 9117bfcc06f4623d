import { BUNDLE_ALIASES } from '../../scripts/lambda-bundle.mjs';
import { functionGraph } from './function-graph.js';

/**
 * The Lambda bundles replace some modules with stand-ins (BUNDLE_ALIASES in
 * scripts/lambda-bundle.mjs) on the word of who imports them and why. Checked here on every function's
 * import graph, built without the aliases: if a new importer appears (an SDK update, a new
 * dependency), the stand-in may no longer be enough and this fails; if the last importer
 * goes, the alias is stale and this fails too.
 */
let imports: { importer: string; specifier: string; kind: string }[];

beforeAll(async () => {
  imports = Object.entries((await functionGraph(false)).inputs).flatMap(([importer, input]) =>
    input.imports.map((entry) => ({ importer, specifier: entry.original ?? entry.path, kind: entry.kind })),
  );
}, 60_000);

const importersOf = (specifier: string) =>
  [
    ...new Set(imports.filter((entry) => entry.specifier === specifier).map((entry) => `${entry.importer} (${entry.kind})`)),
  ].sort();

test('every alias names a stand-in of ours', () => {
  for (const standIn of Object.values(BUNDLE_ALIASES)) expect(standIn).toMatch(/^\.\/shared\/lambda\/[\w-]+\.ts$/);
});

test('node:stream/web and node:stream/promises: only middy imports them (for response streaming)', () => {
  for (const specifier of ['node:stream/web', 'node:stream/promises']) {
    expect(importersOf(specifier)).toEqual(['node_modules/@middy/core/index.js (import-statement)']);
  }
});

test("@smithy/core/event-streams: only the protocols' dynamic import for event-stream operations", () => {
  expect(importersOf('@smithy/core/event-streams')).toEqual([
    'node_modules/@smithy/core/dist-es/submodules/protocols/HttpProtocol.js (dynamic-import)',
  ]);
});

test("@aws-sdk/credential-provider-node: only the SDK clients' runtime config, for their default credentials", () => {
  const importers = importersOf('@aws-sdk/credential-provider-node');
  expect(importers.length).toBeGreaterThanOrEqual(2);
  for (const importer of importers) {
    expect(importer).toMatch(/^node_modules\/@aws-sdk\/client-[\w-]+\/dist-es\/runtimeConfig\.js \(import-statement\)$/);
  }
});

test('node:http: the webhook sender, the tracer, the bounded HTTP handler and the SDK for plain-http endpoints (a local DynamoDB) or IMDS', () => {
  // The stand-in is the whole module but the lazy getters: a new importer might want WebSocket.
  // The tracer is built into tracing.mjs, with the same aliases; IMDS goes with the credential chain.
  expect(importersOf('node:http')).toEqual([
    'node_modules/@aws-lambda-powertools/tracer/lib/esm/provider/ProviderService.js (import-statement)',
    'node_modules/@smithy/core/dist-es/submodules/config/config-resolver/regionConfig/getInstanceMetadataRegion.js (dynamic-import)',
    'node_modules/@smithy/credential-provider-imds/dist-es/remoteProvider/node-http.js (import-statement)',
    'node_modules/@smithy/node-http-handler/dist-es/node-http-handler.js (dynamic-import)',
    'shared/lambda/bounded-http.ts (import-statement)',
    'shared/webhooks/send.ts (import-statement)',
  ]);
});

test("fast-sha256 and @stablelib/base64: only standardwebhooks' signing", () => {
  // The stand-ins have only what it calls: sha256.hmac, base64.encode and base64.decode.
  for (const specifier of ['fast-sha256', '@stablelib/base64']) {
    expect(importersOf(specifier)).toEqual(['node_modules/standardwebhooks/dist/index.js (require-call)']);
  }
});
