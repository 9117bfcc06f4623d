// @ts-check
/**
 * What the Lambda bundles share with the files built beside them: plain JavaScript, so that
 * both the CDK construct (lib/knap-function.ts) and the bundling hook
 * (scripts/bundle-chunks.mjs, run by the bare `node`) read the same values.
 */

/**
 * ESM bundles may still hold CommonJS code that calls `require('node:...')`; give it a real
 * `require`. The import is aliased so it cannot clash with a name in the bundle.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __knapCreateRequire } from 'node:module'; const require = __knapCreateRequire(import.meta.url);";

/** esbuild's target for every bundle: the Lambda runtime's Node.js. */
export const BUNDLE_TARGET = 'node22';

/**
 * Modules the Lambda bundles and the files beside them replace with stand-ins, enough for what
 * the functions do: each would otherwise be parsed or loaded at every cold start for nothing
 * (each stand-in says why). test/cdk/bundle-aliases.test.ts pins who imports them.
 */
export const BUNDLE_ALIASES = {
  // Credentials are always in a function's environment: no INI, SSO, process or IMDS providers.
  '@aws-sdk/credential-provider-node': './shared/lambda/env-credentials.ts',
  // No DynamoDB, SQS or Secrets Manager operation streams events.
  '@smithy/core/event-streams': './shared/lambda/no-event-streams.ts',
  // Only middy's response streaming uses these, and no function streams its response.
  'node:stream/web': './shared/lambda/no-response-streams.ts',
  'node:stream/promises': './shared/lambda/no-response-streams.ts',
  // The whole module, without the namespace that loads undici on Node 22 (webhooks, the tracer).
  'node:http': './shared/lambda/node-http.ts',
  // standardwebhooks' HMAC and base64 in pure JavaScript, where Node's own are smaller and faster.
  'fast-sha256': './shared/lambda/node-sha256.ts',
  '@stablelib/base64': './shared/lambda/node-base64.ts',
};

/**
 * Code that only some invocations need, built as a file beside the bundles that import it, so
 * that a cold start does not parse it. The module that imports it names the file through the
 * constant `define` (set by esbuild; unset when run from source, which imports `entry`).
 * `onlyWith`: built only into assets whose bundle holds this text too. `format`: `cjs` for a
 * file loaded with `require`, by code that must stay synchronous; else `esm`. A file may name
 * one listed after it (the schedule parser names chrono-node's).
 *
 * @type {readonly { file: string; entry: string; define: string; format: 'esm' | 'cjs'; onlyWith?: string }[]}
 */
export const CHUNKS = [
  // X-Ray, for the DynamoDB client, loaded by a container's first sampled invocation (shared/lambda/sampled-tracing.ts).
  {
    file: 'tracing.mjs',
    entry: 'shared/lambda/tracing.ts',
    define: 'KNAP_TRACING_CHUNK',
    format: 'esm',
    onlyWith: 'DynamoDB_20120810',
  },
  // The schedule parser, loaded by the first request that schedules a Knap (shared/services/knap-service.ts).
  { file: 'schedules.mjs', entry: 'shared/schedules/index.ts', define: 'KNAP_SCHEDULES_CHUNK', format: 'esm' },
  // Powertools' Logger and Metrics, loaded by a container's first log line or figure (shared/lambda/powertools.ts).
  { file: 'powertools.cjs', entry: 'shared/lambda/powertools-chunk.ts', define: 'KNAP_POWERTOOLS_CHUNK', format: 'cjs' },
  // lossless-json, loaded by the first JSON that JSON.parse or JSON.stringify cannot take as it is (shared/domain/storable-json.ts).
  {
    file: 'lossless-json.cjs',
    entry: 'shared/domain/lossless-json-chunk.ts',
    define: 'KNAP_LOSSLESS_JSON_CHUNK',
    format: 'cjs',
  },
  // chrono-node, loaded by the parser's first rejection of words it could not place (shared/schedules/leftovers.ts).
  { file: 'chrono.cjs', entry: 'shared/schedules/chrono.ts', define: 'KNAP_CHRONO_CHUNK', format: 'cjs' },
];

/** esbuild's `define` for every bundle and chunk: each chunk's constant names its file. */
export const CHUNK_DEFINES = Object.fromEntries(CHUNKS.map((chunk) => [chunk.define, JSON.stringify(`./${chunk.file}`)]));
