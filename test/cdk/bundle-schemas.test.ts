/**
 * scripts/bundle-function.mjs rewrites our valibot schemas as it bundles them (withPureSchemaCalls):
 * calls marked pure, spreads through a helper, and, outside the OpenAPI document's function,
 * no descriptions. What each module exports must stay the same schemas: every module that
 * imports valibot, bundled as written and as rewritten, its exports compared member by member,
 * in order.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import * as v from 'valibot';
import { bundleFunction, withPureSchemaCalls } from '../../scripts/bundle-function.mjs';
import { runWithModule } from '../support/run-module.js';

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

const SAMPLES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  '2026-01-01T00:00:00Z',
  0,
  1.5,
  -1,
  10 ** 6,
  true,
  [],
  [1, 'x'],
  {},
  { a: 1 },
];

/** What a schema answers for each sample, and for objects of its own members all 'x', all 1, all null; '' for a value that is no schema. */
const answersOf = (value: unknown): string => {
  if ((value as { kind?: unknown } | null)?.kind !== 'schema') return '';
  const schema = value as v.GenericSchema;
  const members = Object.keys((schema as { entries?: object }).entries ?? {});
  const samples = [...SAMPLES, ...['x', 1, null].map((member) => Object.fromEntries(members.map((name) => [name, member])))];
  return JSON.stringify(
    samples.map((sample) => {
      const result = v.safeParse(schema, sample);
      const issues = result.issues?.map((issue) => [issue.kind, issue.type, issue.expected, issue.message, v.getDotPath(issue)]);
      return [result.success, result.success ? result.output : null, issues ?? null];
    }),
  );
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
      expect([name, answersOf(bundled[name])]).toEqual([name, answersOf(written[name])]);
    }
  });
});

test('a schema nothing uses is left out of a bundle, and with it, descriptions that interpolate', async () => {
  const entry = join(dir, 'entry.ts');
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

test("an error in a rewritten module names the line and column of the file as written: the rewrite's map is followed", async () => {
  const src = join(dir, 'mapped', 'src');
  mkdirSync(src, { recursive: true });
  // The fixture's packages are the project's.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'mapped', 'node_modules'));
  // Three lines of description, left out of the bundle, before the throw.
  writeFileSync(
    join(src, 'schemas.ts'),
    [
      "import * as v from 'valibot';",
      'export const Named = v.pipe(',
      '  v.string(),',
      '  v.description(',
      "    'a name',",
      '  ),',
      ');',
      'export const check = (value: unknown): string => {',
      "  if (typeof value !== 'string') throw new TypeError('not a string');",
      '  return v.parse(Named, value);',
      '};',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(src, 'entry.ts'),
    // Imported lazily, as routes are: the bundler appends an import of the entry to it, before its map.
    "export const handler = async (value: unknown) => (await import('./schemas.js')).check(value);\n",
  );
  const out = join(dir, 'mapped', 'out');
  await bundleFunction(ROOT, join(src, 'entry.ts'), out);
  expect(readFileSync(join(out, 'index.mjs'), 'utf8')).not.toContain('a name');
  const index = join(out, 'index.mjs');
  const stack = runWithModule(index, 'try { await m.handler(1); } catch (error) { process.stdout.write(error.stack); }');
  expect(stack).toMatch(/^TypeError: not a string/);
  expect(stack).toMatch(/schemas\.ts:9:40\)/);
  expect(runWithModule(index, "process.stdout.write(await m.handler('x'))")).toBe('x');
});

describe('what the rewrite leaves as written', () => {
  const rewrite = (body: string) =>
    withPureSchemaCalls(`import * as v from 'valibot';\n${body}\n`, 'case.ts', { describe: false }).split(
      '\n//# sourceMappingURL=',
    )[0];

  test('a call whose value is used is marked; one in a statement of its own, or one whose result is called, is not', () => {
    expect(rewrite('export const S = v.string();')).toContain('export const S = /* @__PURE__ */ v.string();');
    expect(rewrite('v.string();')).toContain('\nv.string();');
    expect(rewrite('export const check = (input: unknown) => v.parser(S)(input);')).toContain('=> v.parser(S)(input)');
  });

  test('a module that names anything else v is left as it is', () => {
    const text =
      "import * as v from 'valibot';\nexport const S = v.string();\nexport const f = (v: Map<string, number>) => v.set('a', 1);\n";
    expect(withPureSchemaCalls(text, 'case.ts')).toBe(text);
  });

  test('an optional read of entries, or a member called, stays as written', () => {
    expect(rewrite('export const S = v.optional(A.entries?.name);')).toContain('A.entries?.name');
    expect(rewrite('export const S = v.optional(A.entries.name);')).toContain('__knapSchemaEntry(A, "name")');
    expect(rewrite('export const S = v.optional(A.entries.make());')).toContain('A.entries.make()');
  });
});
