// @ts-check
/**
 * Builds, beside a Lambda bundle, the files it imports only when an invocation needs them
 * (CHUNKS in scripts/lambda-bundle.mjs): the X-Ray tracer, the schedule parser, Powertools,
 * chrono-node.
 * Each is minified, with a source map of our code only, like the bundle; a bundle that never
 * names a file gets none.
 *
 * Run by NodejsFunction's afterBundling hook (lib/knap-function.ts) with the bare `node`.
 *
 * Usage: node scripts/bundle-chunks.mjs <project root> <bundle folder>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_ALIASES, BUNDLE_TARGET, CHUNK_DEFINES, CHUNKS, ESM_REQUIRE_BANNER } from './lambda-bundle.mjs';
import { trimMapFile } from './trim-sourcemap.mjs';

/** @param {string} root @param {string} outdir @returns {Promise<string[]>} the files built */
export const bundleChunks = async (root, outdir) => {
  // What the bundle (index.mjs and the files esbuild split from it) and the files built so far
  // name: CHUNKS lists a file after any that names it.
  const bundle = readdirSync(outdir)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => readFileSync(join(outdir, file), 'utf8'))
    .join('\n');
  const built = [bundle];
  const wanted = [];
  for (const chunk of CHUNKS) {
    const named = built.some((code) => code.includes(`"./${chunk.file}"`));
    if (!named || (chunk.onlyWith !== undefined && !bundle.includes(chunk.onlyWith))) continue;
    const outfile = join(outdir, chunk.file);
    await build({
      entryPoints: [join(root, chunk.entry)],
      outfile,
      absWorkingDir: root,
      bundle: true,
      format: chunk.format,
      platform: 'node',
      target: BUNDLE_TARGET,
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      mainFields: ['module', 'main'],
      define: { ...CHUNK_DEFINES },
      alias: { ...BUNDLE_ALIASES },
      // CommonJS has its own `require`.
      ...(chunk.format === 'esm' ? { banner: { js: ESM_REQUIRE_BANNER } } : {}),
      logLevel: 'warning',
    });
    trimMapFile(`${outfile}.map`, root);
    built.push(readFileSync(outfile, 'utf8'));
    wanted.push(chunk.file);
  }
  return wanted;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root, outdir] = process.argv.slice(2);
  if (!root || !outdir) {
    console.error('Usage: node scripts/bundle-chunks.mjs <project root> <bundle folder>');
    process.exit(2);
  }
  await bundleChunks(root, outdir);
}
