import { resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { jobs } from '../../functions/jobs.js';
import { routes } from '../../functions/routes.js';
import { PROJECT_ROOT } from '../../lib/knap-function.js';
import { BUNDLE_ALIASES, CHUNK_DEFINES } from '../../scripts/lambda-bundle.mjs';

/**
 * Every function bundled at once, in memory, for its import graph (esbuild's metafile): an
 * output per function id. `asDeployed` adds the stack's aliases and chunk names; without
 * them, the graph shows who imports what the aliases replace.
 */
export const functionGraph = async (asDeployed: boolean): Promise<Metafile> => {
  const result = await build({
    entryPoints: Object.fromEntries([...routes, ...jobs].map((fn) => [fn.id, resolve(PROJECT_ROOT, fn.entry)])),
    absWorkingDir: PROJECT_ROOT,
    outdir: 'out',
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    ...(asDeployed ? { alias: BUNDLE_ALIASES, define: { ...CHUNK_DEFINES } } : {}),
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile as Metafile;
};
