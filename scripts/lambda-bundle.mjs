// @ts-check
/**
 * What the Lambda bundles share with the tracer chunk built beside them: plain JavaScript, so
 * that both the CDK construct (lib/knap-function.ts) and the bundling hook
 * (scripts/bundle-tracing.mjs, run by the bare `node`) read the same values.
 */

/**
 * ESM bundles may still hold CommonJS code that calls `require('node:...')`; give it a real
 * `require`. The import is aliased so it cannot clash with a name in the bundle.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __knapCreateRequire } from 'node:module'; const require = __knapCreateRequire(import.meta.url);";

/** esbuild's target for every bundle: the Lambda runtime's Node.js. */
export const BUNDLE_TARGET = 'node22';

/** The tracer's file beside a bundle (shared/lambda/sampled-tracing.ts imports it by this name). */
export const TRACING_CHUNK = 'tracing.mjs';
