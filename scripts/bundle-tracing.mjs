// @ts-check
/**
 * Builds tracing.mjs beside a Lambda bundle that imports it: the Powertools Tracer and the
 * X-Ray SDK, which shared/lambda/sampled-tracing.ts loads on a container's first sampled
 * invocation instead of every cold start paying for them. Minified, with a source map of our
 * code only, like the bundle. Only the bundles with the DynamoDB client get one: the tracer
 * traces its calls, and the functions without it never load the tracer.
 *
 * Run by NodejsFunction's afterBundling hook (lib/knap-function.ts) with the bare `node`.
 *
 * Usage: node scripts/bundle-tracing.mjs <project root> <bundle folder>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_TARGET, ESM_REQUIRE_BANNER, TRACING_CHUNK } from './lambda-bundle.mjs';
import { isOwnSource, sourcesFromRoot, trimSourceMap } from './trim-sourcemap.mjs';

/** @param {string} root @param {string} outdir @returns {Promise<boolean>} whether the bundle wanted it */
export const bundleTracing = async (root, outdir) => {
  const bundle = readFileSync(join(outdir, 'index.mjs'), 'utf8');
  if (!bundle.includes(`"./${TRACING_CHUNK}"`) || !bundle.includes('DynamoDB_20120810')) return false;
  const outfile = join(outdir, TRACING_CHUNK);
  await build({
    entryPoints: [join(root, 'shared/lambda/tracing.ts')],
    outfile,
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: BUNDLE_TARGET,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    logLevel: 'warning',
  });
  const mapFile = `${outfile}.map`;
  const map = trimSourceMap(JSON.parse(readFileSync(mapFile, 'utf8')), isOwnSource);
  writeFileSync(mapFile, JSON.stringify(sourcesFromRoot(map, mapFile, root)));
  return true;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root, outdir] = process.argv.slice(2);
  if (!root || !outdir) {
    console.error('Usage: node scripts/bundle-tracing.mjs <project root> <bundle folder>');
    process.exit(2);
  }
  await bundleTracing(root, outdir);
}
