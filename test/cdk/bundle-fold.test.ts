/**
 * scripts/bundle-function.mjs folds the chunk every cold start reads into index.mjs: a
 * function's cold start is one file. A small function bundled for real, then imported.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleFunction, foldSharedChunkIntoIndex } from '../../scripts/bundle-function.mjs';
import { ESM_REQUIRE_BANNER } from '../../scripts/lambda-bundle.mjs';
import { runWithModule } from '../support/run-module.js';

const ROOT = resolve(import.meta.dirname, '../..');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bundle-fold-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A module the entry and its lazily imported route both use, so esbuild shares it. */
const SOURCES = {
  'shared.ts':
    'export const plusOne = (n: number): number => n + 1;\nexport const fail = (): never => { throw new TypeError("from the route"); };\n',
  // The throw on a line of its own: a map off by a few columns names another line.
  'route.ts':
    'import { fail, plusOne } from "./shared.js";\nexport const twice = (n: number): number => {\n  const next = plusOne(n);\n  if (n >= 0) return next * 2;\n  return fail();\n};\n',
  'entry.ts':
    'import { plusOne } from "./shared.js";\nexport const handler = async (n: number) => (await import("./route.js")).twice(plusOne(n));\nexport const stores = { knaps: plusOne };\n',
};

const bundle = async (): Promise<string> => {
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  for (const [file, text] of Object.entries(SOURCES)) writeFileSync(join(src, file), text);
  const out = join(dir, 'out');
  await bundleFunction(ROOT, join(src, 'entry.ts'), out);
  return out;
};

const run = (out: string, script: string): string => runWithModule(join(out, 'index.mjs'), script);

test('the shared chunk becomes index.mjs: one file at a cold start, the entry exports its names, the route imports index.mjs', async () => {
  const out = await bundle();
  const files = readdirSync(out).sort();
  expect(files.filter((file) => file.startsWith('chunk-'))).toEqual([]);
  expect(files).toEqual(expect.arrayContaining(['index.mjs', 'index.mjs.map']));
  const route = files.find((file) => /^route-[A-Z0-9]{8}\.mjs$/.test(file));
  expect(route).toBeDefined();
  const index = readFileSync(join(out, 'index.mjs'), 'utf8');
  // No static import of a file beside it: the cold start reads index.mjs alone.
  expect(index).not.toMatch(/(?:^|[;}\n])import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\//);
  expect(index).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\n$/);
  expect(JSON.parse(readFileSync(join(out, 'index.mjs.map'), 'utf8')).file).toBe('index.mjs');
  expect(readFileSync(join(out, route as string), 'utf8')).toMatch(/from"\.\/index\.mjs" +;/);
  const [result, store, names] = JSON.parse(
    run(out, 'process.stdout.write(JSON.stringify([await m.handler(1), m.stores.knaps(1), Object.keys(m)]))'),
  ) as [number, number, string[]];
  expect([result, store]).toEqual([6, 2]);
  // Beside the chunk's own (short) export names, which the route files import.
  expect(names).toEqual(expect.arrayContaining(['handler', 'stores']));
});

test("an error thrown in the route, through index.mjs's code, maps to both sources: the padding kept the route map's columns", async () => {
  const out = await bundle();
  const stack = run(out, 'try { await m.handler(-5); } catch (error) { process.stdout.write(error.stack); }');
  expect(stack).toMatch(/^TypeError: from the route/);
  expect(stack).toMatch(/shared\.ts:2:\d+\)/);
  expect(stack).toMatch(/route\.ts:5:10\)/);
});

test('an index.mjs with code of its own is left as it is', () => {
  const out = join(dir, 'plain');
  mkdirSync(out, { recursive: true });
  const text = 'export const handler = async () => 1;\n//# sourceMappingURL=index.mjs.map\n';
  writeFileSync(join(out, 'index.mjs'), text);
  foldSharedChunkIntoIndex(out);
  expect(readdirSync(out)).toEqual(['index.mjs']);
  expect(readFileSync(join(out, 'index.mjs'), 'utf8')).toBe(text);
});

test("the chunk's export list is the one that ends its code, not one a license comment after it quotes", () => {
  const out = join(dir, 'licensed');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'index.mjs'),
    `${ESM_REQUIRE_BANNER}\nimport{b as a}from"./chunk-ABCDEFGH.mjs";export{a as handler};\n//# sourceMappingURL=index.mjs.map\n`,
  );
  writeFileSync(
    join(out, 'chunk-ABCDEFGH.mjs'),
    `${ESM_REQUIRE_BANNER}\nvar t=()=>"ok";export{t as b};\n/*! Bundled license information:\n\nsome-package:\n  (* export{LICENSE} *)\n*/\n//# sourceMappingURL=chunk-ABCDEFGH.mjs.map\n`,
  );
  writeFileSync(join(out, 'chunk-ABCDEFGH.mjs.map'), JSON.stringify({ version: 3, sources: [], names: [], mappings: '' }));
  foldSharedChunkIntoIndex(out);
  expect(readdirSync(out).sort()).toEqual(['index.mjs', 'index.mjs.map']);
  expect(run(out, 'process.stdout.write(m.handler())')).toBe('ok');
});
