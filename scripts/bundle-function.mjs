// @ts-check
/**
 * Bundles one Lambda function: an ESM bundle, minified, split where the code names a dynamic
 * `import()` (lib/knap-function.ts says what and why). Run by the CDK construct in a process of
 * its own, since esbuild takes plugins only in its asynchronous API and CDK's local bundling is
 * synchronous.
 *
 * Usage: node scripts/bundle-function.mjs <project root> <entry> <out dir>
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import MagicString from 'magic-string';
import { BUNDLE_ALIASES, BUNDLE_TARGET, CHUNK_DEFINES, ESM_REQUIRE_BANNER } from './lambda-bundle.mjs';

/**
 * The route table's prose (each entry's `description`, and its `entry` and `assets`, which only
 * the CDK app and the local server read) is a third of what the table weighs in a bundle,
 * parsed at every cold start of the functions that route: the bundles get the table without it.
 */
const PROSE =
  /^[ \t]+(?:description|entry|assets):\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\[[^\]]*\])(?:\s*\+\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))*,\n/gm;

/** The route table's text as bundled: without PROSE (test/cdk/route-table-source.test.ts checks what is left). */
export const routeTableSource = (/** @type {string} */ text) => text.replace(PROSE, '');

const ROUTE_TABLE = /[\\/]functions[\\/]routes\.ts$/;

/**
 * valibot's functions that build schemas and actions, which it marks `@__NO_SIDE_EFFECTS__`:
 * a schema nothing uses could then be left out. esbuild honours that mark only for calls in
 * the file that declares the function (evanw/esbuild#4369), so every schema a module declared
 * was bundled, and built at every cold start, used or not: the run and admin schemas in the
 * dispatcher. `parse` and `assert` throw, and are not marked.
 */
const valibotPureFunctions = () => {
  const dist = readFileSync(require.resolve('valibot'), 'utf8');
  return new Set([...dist.matchAll(/\/\* @__NO_SIDE_EFFECTS__ \*\/\s*function (\w+)\(/g)].map((match) => match[1]));
};

/** @type {Set<string> | undefined} */
let pureNames;
const require = createRequire(import.meta.url);
/** TypeScript's parser, loaded by the first module that imports valibot. @type {typeof import('typescript') | undefined} */
let typescript;

/**
 * The module's text with each call of a marked valibot function (`v.object(...)`, through the
 * module's `import * as v from 'valibot'`) marked `@__PURE__` itself, which esbuild honours
 * across modules. With `describe` false, the schemas' `v.description(...)` pipe items are left
 * out too: they are words for the OpenAPI document, which only the function that serves it
 * builds, and a description that interpolates (`${RUN_ID_PATTERN}`) would keep its schema in
 * a bundle that never uses it. Calls are found by TypeScript's parser, never in a string or a
 * comment; only a call whose value is used is marked (a call in a statement of its own, or one
 * whose result is called, is left as written), and a module that names anything else `v` is
 * left as it is. The text ends with an inline source map of the edits, which esbuild follows:
 * stack traces still name the lines and columns of the file as written.
 */
export const withPureSchemaCalls = (/** @type {string} */ text, /** @type {string} */ path, { describe = true } = {}) => {
  const namespace = /^import \* as (\w+) from 'valibot';$/m.exec(text)?.[1];
  if (!namespace) return text;
  pureNames ??= valibotPureFunctions();
  typescript ??= /** @type {typeof import('typescript')} */ (require('typescript'));
  const names = pureNames;
  const ts = typescript;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  /** Whether the module declares the namespace's name again (a parameter, a variable): then `v.x` may not be valibot's. */
  let shadowed = false;
  const findShadows = (/** @type {import('typescript').Node} */ node) => {
    const declared =
      (ts.isParameter(node) || ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isBindingElement(node)) &&
      node.name !== undefined &&
      ts.isIdentifier(node.name) &&
      node.name.text === namespace;
    if (declared) shadowed = true;
    else ts.forEachChild(node, findShadows);
  };
  findShadows(source);
  if (shadowed) return text;
  const edited = new MagicString(text);
  /** The valibot function a call names, or undefined. */
  const valibotCall = (/** @type {import('typescript').Node} */ node) =>
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ts.isIdentifier(node.expression.expression) &&
    node.expression.expression.text === namespace
      ? node.expression.name.text
      : undefined;
  /** Whether a valibot call holds the node (as an argument, at any depth). */
  const inValibotCall = (/** @type {import('typescript').Node} */ node) => {
    for (let up = node.parent; up; up = up.parent) if (valibotCall(up) !== undefined) return true;
    return false;
  };
  /** Whether the call's value is used as a value: not a statement of its own, not itself called. */
  const valueUsed = (/** @type {import('typescript').CallExpression} */ call) =>
    !ts.isExpressionStatement(call.parent) && !(ts.isCallExpression(call.parent) && call.parent.expression === call);
  const helpers = new Set();
  const visit = (/** @type {import('typescript').Node} */ node) => {
    const name = valibotCall(node);
    const pure = name !== undefined && names.has(name) && valueUsed(/** @type {import('typescript').CallExpression} */ (node));
    if (name === 'description' && !describe && ts.isCallExpression(node.parent) && valibotCall(node.parent) === 'pipe') {
      // From the end of the pipe item before it: `v.pipe(schema, v.description('...'))` is `v.pipe(schema)`.
      const items = node.parent.arguments;
      const before = items[items.indexOf(/** @type {import('typescript').Expression} */ (node)) - 1];
      if (before) {
        edited.remove(before.end, node.end);
        return;
      }
    }
    // `v.object({ ...A.entries, ...shape, b })`: an object spread, which esbuild never drops,
    // becomes `__knapSchemaWith(v.object, [[A], shape], { b })` (SCHEMA_HELPERS; `[A]` for A's
    // entries), when the spreads come first.
    const [shape] = pure ? /** @type {import('typescript').CallExpression} */ (node).arguments : [];
    if (shape && ts.isObjectLiteralExpression(shape)) {
      const spreads = [];
      for (const member of shape.properties) {
        if (!ts.isSpreadAssignment(member)) break;
        const base = member.expression;
        if (ts.isIdentifier(base)) spreads.push(base.text);
        else if (
          ts.isPropertyAccessExpression(base) &&
          base.name.text === 'entries' &&
          ts.isIdentifier(base.expression) &&
          !base.questionDotToken
        ) {
          spreads.push(`[${base.expression.text}]`);
        } else break;
      }
      const rest = shape.properties.slice(spreads.length);
      if (spreads.length > 0 && !rest.some(ts.isSpreadAssignment)) {
        helpers.add('with');
        const call = /** @type {import('typescript').CallExpression} */ (node);
        edited.overwrite(
          call.getStart(source),
          shape.getStart(source),
          `/* @__PURE__ */ __knapSchemaWith(${call.expression.getText(source)}, [${spreads.join(', ')}], `,
        );
        edited.overwrite(shape.getStart(source) + 1, rest[0] ? rest[0].getStart(source) : shape.end - 1, ' ');
        for (const member of rest) visit(member);
        for (const argument of call.arguments.slice(1)) visit(argument);
        return;
      }
    }
    // `A.entries.name`, read inside a schema: a property read, which esbuild never drops either.
    if (
      ts.isPropertyAccessExpression(node) &&
      !node.questionDotToken &&
      ts.isPropertyAccessExpression(node.expression) &&
      !node.expression.questionDotToken &&
      node.expression.name.text === 'entries' &&
      ts.isIdentifier(node.expression.expression) &&
      !(ts.isCallExpression(node.parent) && node.parent.expression === node) &&
      !(ts.isBinaryExpression(node.parent) && node.parent.left === node) &&
      inValibotCall(node)
    ) {
      helpers.add('entry');
      const schema = node.expression.expression.text;
      edited.overwrite(
        node.getStart(source),
        node.end,
        `/* @__PURE__ */ __knapSchemaEntry(${schema}, ${JSON.stringify(node.name.text)})`,
      );
      return;
    }
    if (pure) edited.appendLeft(node.getStart(source), '/* @__PURE__ */ ');
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!edited.hasChanged()) return text;
  for (const helper of helpers) edited.append(SCHEMA_HELPERS[/** @type {'with' | 'entry'} */ (helper)]);
  const map = edited.generateMap({ source: path, hires: 'boundary', includeContent: false });
  return `${edited.toString()}\n//# sourceMappingURL=${map.toUrl()}\n`;
};

/** Same-file functions marked `@__NO_SIDE_EFFECTS__`, which esbuild honours: withPureSchemaCalls's stand-ins. */
const SCHEMA_HELPERS = {
  with: `
/* @__NO_SIDE_EFFECTS__ */ function __knapSchemaWith(make: any, bases: any[], own: any, ...more: any[]) {
  return make(Object.assign({}, ...bases.map((base) => (Array.isArray(base) ? base[0].entries : base)), own), ...more);
}
`,
  entry: `
/* @__NO_SIDE_EFFECTS__ */ function __knapSchemaEntry(schema: any, key: string) {
  return schema.entries[key];
}
`,
};

/**
 * A module's text as bundled: the route table's without its prose, valibot's calls marked pure
 * (and without descriptions unless `describe`).
 */
const sourceOf = (/** @type {string} */ path, describe = true) => {
  const text = readFileSync(path, 'utf8');
  return withPureSchemaCalls(ROUTE_TABLE.test(path) ? routeTableSource(text) : text, path, { describe });
};

/** A file's closing source-map comment, with the line break before it. */
const MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

/** The module that builds the OpenAPI document from the schemas, with their descriptions. */
const OPENAPI_DOCUMENT = /(?:^|[\\/])shared[\\/]openapi[\\/]document\.ts$/;

/** Our own TypeScript (not a package's): what sourceOf transforms. */
const OWN_SOURCE = /^(?![\s\S]*[\\/]node_modules[\\/])[\s\S]*\.ts$/;

/**
 * @param {string} root
 * @param {string} entry
 * @param {string} outdir
 */
export const bundleFunction = async (root, entry, outdir) => {
  /** @type {import('esbuild').BuildOptions} */
  const options = {
    entryPoints: { index: entry },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    platform: 'node',
    target: BUNDLE_TARGET,
    minify: true,
    // Maps give stack traces our files and lines; the sources themselves need not ship.
    sourcemap: true,
    sourcesContent: false,
    // ESM entry points first, so esbuild can tree-shake the AWS SDK and the rest.
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    // Stack traces mapped to our sources when an error is formatted, not at every cold start
    // as `--enable-source-maps` would (shared/lambda/mapped-stacks.ts); injected, so it runs first.
    inject: [resolve(root, 'shared/lambda/mapped-stacks.ts')],
    define: { ...CHUNK_DEFINES },
    // Smaller or lighter stand-ins for some modules (BUNDLE_ALIASES says why, for each).
    alias: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [from, resolve(root, to)])),
    // A synth says nothing unless something is wrong.
    logLevel: 'warning',
  };
  // Which modules are imported only dynamically (an area's routes, the kinds of token, the
  // SDK's lazily loaded parts): those not in the entry's static closure.
  const graph = await build({ ...options, outdir, write: false, metafile: true, logLevel: 'silent' });
  const inputs = graph.metafile?.inputs ?? {};
  const closure = new Set([relative(root, entry)]);
  for (const file of closure) {
    for (const { kind, path } of inputs[file]?.imports ?? []) if (kind === 'import-statement') closure.add(path);
  }
  // Schemas keep their descriptions only where the OpenAPI document is built from them.
  const describe = Object.keys(inputs).some((file) => OPENAPI_DOCUMENT.test(file));
  /** Lazily imported ESM modules (a CommonJS one takes no `import` statement), by absolute path. */
  const lazy = new Set();
  /** Modules of the cold start that some code also imports dynamically (the SDK does, for `node:http`). */
  const eagerAndLazy = new Set();
  for (const input of Object.values(inputs)) {
    for (const { kind, path, external } of input.imports) {
      if (kind !== 'dynamic-import' || external) continue;
      if (closure.has(path)) eagerAndLazy.add(resolve(root, path));
      else if (inputs[path]?.format === 'esm') lazy.add(resolve(root, path));
    }
  }
  // esbuild puts code in one file per set of entry points (the bundle's and each dynamic
  // import's) that reach it, so what a cold start loads came out in several files, each
  // costing Node.js's ESM loader more than its bytes do. A module imported lazily also imports
  // the function's entry, which it runs after anyway (never one the entry imports itself: a
  // cycle would change the order modules run in; a dynamic import of one of those gets a
  // stand-in that imports the entry and re-exports it): then the modules of the cold start are
  // reached by the same entry points, and are one file beside index.mjs.
  const followEntry = `\nimport ${JSON.stringify(entry)};\n`;
  /** @type {import('esbuild').Plugin} */
  const lazyModulesFollowTheEntry = {
    name: 'lazy-modules-follow-the-entry',
    setup(plugin) {
      plugin.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
        const resolved = await plugin.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'inner',
        });
        if (resolved.errors.length > 0 || !eagerAndLazy.has(resolved.path)) return undefined;
        return { path: resolved.path, namespace: 'follows-entry' };
      });
      plugin.onLoad({ filter: /.*/, namespace: 'follows-entry' }, (args) => {
        const module = JSON.stringify(args.path);
        const hasDefault = /\bexport\s+default\b|\bexport\s*\{[^}]*\bdefault\b/.test(readFileSync(args.path, 'utf8'));
        const reexport = `export * from ${module};\n${hasDefault ? `export { default } from ${module};\n` : ''}`;
        return { contents: `${reexport}${followEntry}`, loader: 'js', resolveDir: root };
      });
      plugin.onLoad({ filter: /\.(ts|m?js)$/ }, (args) => {
        if (args.namespace !== 'file') return undefined;
        const own = OWN_SOURCE.test(args.path);
        if (!own && !lazy.has(args.path)) return undefined;
        const contents = own ? sourceOf(args.path, describe) : readFileSync(args.path, 'utf8');
        const loader = own ? 'ts' : 'js';
        if (!lazy.has(args.path)) return { contents, loader };
        // Before a rewritten module's map comment, which stays last: the map covers the lines above.
        const map = MAP_COMMENT.exec(contents)?.index ?? contents.length;
        return { contents: `${contents.slice(0, map)}${followEntry}${contents.slice(map + 1)}`, loader };
      });
    },
  };
  await build({ ...options, outdir, plugins: [lazyModulesFollowTheEntry] });
  foldSharedChunkIntoIndex(outdir);
};

/**
 * Once every module of the cold start is in one shared chunk, index.mjs only re-exports it, and
 * Node.js's ESM loader would still resolve, read and link two files at every cold start (about
 * 2 ms of a bare DocumentClient bundle's 60). The chunk becomes index.mjs, its exports named as
 * the entry's were; the files that imported the chunk import index.mjs, the name padded with
 * spaces so their maps' columns still hold. Exported: test/cdk/bundle-fold.test.ts.
 */
export const foldSharedChunkIntoIndex = (/** @type {string} */ outdir) => {
  const read = (/** @type {string} */ file) => readFileSync(join(outdir, file), 'utf8');
  const index = read('index.mjs').replace(ESM_REQUIRE_BANNER, '').replace(MAP_COMMENT, '').trim();
  const reexport = /^import\{([^}]*)\}from"\.\/(chunk-[\w-]+\.mjs)";export\{([^}]*)\};?$/.exec(index);
  if (!reexport) return;
  const [, imported = '', chunk = '', exported = ''] = reexport;
  const pairs = (/** @type {string} */ list) =>
    list.split(',').map((pair) => {
      const [from, to = from] = pair.trim().split(/\s+as\s+/);
      return /** @type {[string, string]} */ ([from ?? '', to]);
    });
  const code = read(chunk).replace(MAP_COMMENT, '');
  // The chunk ends with its export list, then any license comments esbuild gathered.
  const chunkExports = /export\{([^}]*)\};?\s*(?:\/\*[\s\S]*?\*\/\s*)*$/.exec(code)?.[1];
  if (chunkExports === undefined) throw new Error(`${chunk}: no export list to fold into index.mjs`);
  /** The chunk's local binding of each name it exports. */
  const localOf = new Map(pairs(chunkExports).map(([local, name]) => [name, local]));
  /** index.mjs's binding of each chunk export it imports, to the chunk's export name. */
  const chunkNameOf = new Map(pairs(imported).map(([name, binding]) => [binding, name]));
  const entryExports = pairs(exported).map(([binding, name]) => {
    const local = localOf.get(chunkNameOf.get(binding) ?? '');
    if (!local || localOf.has(name)) throw new Error(`${chunk}: cannot export ${name} from index.mjs`);
    return `${local} as ${name}`;
  });
  writeFileSync(join(outdir, 'index.mjs'), `${code}\nexport{${entryExports.join(',')}};\n//# sourceMappingURL=index.mjs.map\n`);
  const map = JSON.parse(read(`${chunk}.map`));
  writeFileSync(join(outdir, 'index.mjs.map'), JSON.stringify({ ...map, file: 'index.mjs' }));
  rmSync(join(outdir, chunk));
  rmSync(join(outdir, `${chunk}.map`));
  const from = JSON.stringify(`./${chunk}`);
  const to = JSON.stringify('./index.mjs').padEnd(from.length, ' ');
  for (const file of readdirSync(outdir).filter((name) => name.endsWith('.mjs') && name !== 'index.mjs')) {
    const text = read(file);
    if (text.includes(from)) writeFileSync(join(outdir, file), text.replaceAll(from, to));
  }
  if (read('index.mjs').includes(from)) throw new Error(`${chunk}: index.mjs imports itself`);
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root, entry, outdir] = process.argv.slice(2);
  if (!root || !entry || !outdir) throw new Error('usage: node scripts/bundle-function.mjs <root> <entry> <outdir>');
  await bundleFunction(resolve(root), resolve(root, entry), resolve(outdir));
}
