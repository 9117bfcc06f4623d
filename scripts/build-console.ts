/**
 * `npm run build:console`: the admin console (console/) bundled by esbuild into console/dist:
 * app.js, app.css and index.html (which names them with their content hashes, so a browser
 * never mixes two versions). Prints the JavaScript's gzipped size; the budget is 150 KB.
 * `npm start`, the tests and the CDK synth build it when it is missing or older than its sources.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { contentVersion } from '../shared/console-files.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_SOURCE = join(root, 'console');
export const CONSOLE_DIST = join(CONSOLE_SOURCE, 'dist');
export const CONSOLE_JS_BUDGET_BYTES = 150 * 1024;

export interface ConsoleBuild {
  jsBytes: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
}

export const buildConsole = async (outdir = CONSOLE_DIST): Promise<ConsoleBuild> => {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(CONSOLE_SOURCE, 'src', 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const js = readFileSync(join(outdir, 'app.js'));
  const css = readFileSync(join(outdir, 'app.css'));
  const html = readFileSync(join(CONSOLE_SOURCE, 'index.html'), 'utf8')
    .replace('__JS_VERSION__', contentVersion(js))
    .replace('__CSS_VERSION__', contentVersion(css));
  writeFileSync(join(outdir, 'index.html'), html);
  return { jsBytes: js.length, jsGzipBytes: gzipSync(js).length, cssGzipBytes: gzipSync(css).length };
};

const newest = (path: string): number =>
  statSync(path).isDirectory()
    ? Math.max(
        0,
        ...readdirSync(path)
          .filter((name) => name !== 'dist')
          .map((name) => newest(join(path, name))),
      )
    : statSync(path).mtimeMs;

/** Builds the console unless console/dist is newer than every source file. */
export const ensureConsoleBuilt = async (): Promise<void> => {
  let built = 0;
  try {
    built = Math.min(...['app.js', 'app.css', 'index.html'].map((name) => statSync(join(CONSOLE_DIST, name)).mtimeMs));
  } catch {
    built = 0;
  }
  if (built <= newest(CONSOLE_SOURCE)) await buildConsole();
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await buildConsole();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `console/dist: app.js ${kb(result.jsBytes)} (${kb(result.jsGzipBytes)} gzipped, budget ${kb(CONSOLE_JS_BUDGET_BYTES)}), app.css ${kb(result.cssGzipBytes)} gzipped`,
  );
  if (result.jsGzipBytes > CONSOLE_JS_BUDGET_BYTES) {
    console.error('The console JavaScript is over its budget.');
    process.exitCode = 1;
  }
}
