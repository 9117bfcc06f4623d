/**
 * `npm run build:admin` (and `npm pack`, through prepack): the admin CLI as one file,
 * dist/knap-admin.mjs, the package's `knap-admin` command. An operator installs the packed
 * tarball (`npm install -g ./knap-api-<version>.tgz`) and needs neither a clone nor tsx. The
 * SDK's full credential chain stays in (profiles, SSO), unlike in the Lambda bundles.
 */
import { chmodSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = resolve(process.argv[2] ?? join(root, 'dist/knap-admin.mjs'));

await build({
  entryPoints: [join(root, 'local/admin.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  mainFields: ['module', 'main'],
  minify: true,
  legalComments: 'none',
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __knapCreateRequire } from 'node:module'; const require = __knapCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
console.log(`Built ${outfile}`);
