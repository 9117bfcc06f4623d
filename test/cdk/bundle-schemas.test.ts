/**
 * scripts/bundle-function.mjs rewrites our valibot schemas as it bundles them (withPureSchemaCalls):
 * calls marked pure, spreads through a helper, and, outside the OpenAPI document's function,
 * no descriptions. What each module exports must stay the same schemas: every module that
 * imports valibot, bundled as written and as rewritten, its exports compared member by member,
 * in order.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { withPureSchemaCalls } from '../../scripts/bundle-function.mjs';

const ROOT = resolve(import.meta.dirname, '../..');

const MODULES = execFileSync('git', ['grep', '-l', "^import \\* as v from 'valibot';", '--', 'shared', 'functions'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .trim()
  .split('\n')
  .filter((file) => file.endsWith('.ts'));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bundle-schemas-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rewritten = (describe: boolean): Plugin => ({
  name: 'rewritten',
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, (args) =>
      args.path.includes('node_modules')
        ? undefined
        : { contents: withPureSchemaCalls(readFileSync(args.path, 'utf8'), args.path, { describe }), loader: 'ts' },
    );
  },
});

/** The module bundled alone, imported in this process. */
const load = async (module: string, name: string, plugins: Plugin[]): Promise<Record<string, unknown>> => {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, module)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    absWorkingDir: ROOT,
    logLevel: 'silent',
    plugins,
  });
  return (await import(outfile)) as Record<string, unknown>;
};

/** A value as JSON, members in their order, functions by kind, descriptions left out unless `describe`. */
const shapeOf = (value: unknown, describe: boolean): string => {
  const seen = new Set<object>();
  const walk = (node: unknown): unknown => {
    if (typeof node === 'function') return 'function';
    if (node instanceof RegExp) return String(node);
    if (node === null || typeof node !== 'object') return node;
    if (seen.has(node)) return '[seen]';
    seen.add(node);
    if (Array.isArray(node)) {
      const isDescription = (item: unknown) => (item as { type?: unknown } | null)?.type === 'description';
      return node.filter((item) => describe || !isDescription(item)).map(walk);
    }
    return Object.fromEntries(Object.keys(node).map((key) => [key, walk((node as Record<string, unknown>)[key])]));
  };
  return JSON.stringify(walk(value));
};

test('the modules that import valibot are found', () => {
  expect(MODULES).toEqual(
    expect.arrayContaining(['shared/domain/runs.ts', 'shared/schemas/admin.ts', 'shared/webhooks/message.ts']),
  );
});

describe.each(MODULES.map((module, index) => [module, index] as const))('%s', (module, index) => {
  test.each([true, false])('rewritten with descriptions %s, it exports the same schemas', async (describe) => {
    const written = await load(module, `written-${index}-${describe}`, []);
    const bundled = await load(module, `rewritten-${index}-${describe}`, [rewritten(describe)]);
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(written).sort());
    for (const name of Object.keys(written)) {
      expect([name, shapeOf(bundled[name], describe)]).toEqual([name, shapeOf(written[name], describe)]);
    }
  });
});

test('a schema nothing uses is left out of a bundle, and with it, descriptions that interpolate', async () => {
  const entry = join(dir, 'entry.ts');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    entry,
    `import { RUN_STATUSES } from ${JSON.stringify(join(ROOT, 'shared/domain/runs.ts'))};\nconsole.log(RUN_STATUSES);\n`,
  );
  const bundle = async (plugins: Plugin[]) =>
    (
      await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'node',
        absWorkingDir: ROOT,
        plugins,
        logLevel: 'silent',
      })
    ).outputFiles[0]?.text ?? '';
  // As written, esbuild keeps every schema runs.ts declares (evanw/esbuild#4369): the admin one's words are in.
  expect(await bundle([])).toContain('delivery_attempts');
  const text = await bundle([rewritten(false)]);
  expect(text).not.toContain('delivery_attempts');
  expect(text).not.toContain('base64url characters');
  expect(text).toContain('no_endpoint');
});
