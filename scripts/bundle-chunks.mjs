// @ts-check
/**
 * Builds, beside a Lambda bundle, the files it imports only when an invocation needs them
 * (CHUNKS in scripts/lambda-bundle.mjs): the X-Ray tracer, the schedule parser. Each is
 * minified, with a source map of our code only, like the bundle; a bundle that never names
 * a file gets none.
 *
 * Run by NodejsFunction's afterBundling hook (lib/knap-function.ts) with the bare `node`.
 *
 * Usage: node scripts/bundle-chunks.mjs <project root> <bundle folder>
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_TARGET, CHUNKS, ESM_REQUIRE_BANNER } from './lambda-bundle.mjs';
import { trimMapFile } from './trim-sourcemap.mjs';

/** @param {string} root @param {string} outdir @returns {Promise<string[]>} the files built */
export const bundleChunks = async (root, outdir) => {
  const bundle = readFileSync(join(outdir, 'index.mjs'), 'utf8');
  const wanted = CHUNKS.filter(
    (chunk) => bundle.includes(`"./${chunk.file}"`) && (chunk.onlyWith === undefined || bundle.includes(chunk.onlyWith)),
  );
  for (const chunk of wanted) {
    const outfile = join(outdir, chunk.file);
    await build({
      entryPoints: [join(root, chunk.entry)],
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
    trimMapFile(`${outfile}.map`, root);
  }
  return wanted.map((chunk) => chunk.file);
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root, outdir] = process.argv.slice(2);
  if (!root || !outdir) {
    console.error('Usage: node scripts/bundle-chunks.mjs <project root> <bundle folder>');
    process.exit(2);
  }
  await bundleChunks(root, outdir);
}
