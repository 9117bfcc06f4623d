import { SourceMap } from 'node:module';
import { build } from 'esbuild';
import { isOwnSource, type RawSourceMap, trimSourceMap } from '../../scripts/trim-sourcemap.mjs';

/**
 * The bundling hook keeps source maps for our own code only. Checked against esbuild's
 * full map of a real handler: every position that maps into functions/ or shared/ maps
 * exactly as before, every position in node_modules maps to nothing.
 */
let code: string[];
let full: RawSourceMap;
let trimmed: RawSourceMap;
beforeAll(async () => {
  const result = await build({
    entryPoints: ['functions/knaps/list-knaps.ts'],
    bundle: true,
    write: false,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    sourcemap: 'external',
    sourcesContent: false,
    mainFields: ['module', 'main'],
    outfile: 'out/index.mjs',
    logLevel: 'silent',
  });
  const text = (suffix: string) => result.outputFiles.find((file) => file.path.endsWith(suffix))!.text;
  code = text('index.mjs').split('\n');
  full = JSON.parse(text('index.mjs.map')) as RawSourceMap;
  trimmed = trimSourceMap(full, isOwnSource);
});

test('only our sources remain, and the map shrinks to a small fraction', () => {
  expect(full.sources.some((source) => source.includes('node_modules'))).toBe(true);
  expect(trimmed.sources.length).toBeGreaterThan(5);
  expect(trimmed.sources.every((source) => /^(\.\.\/)*(functions|shared)\//.test(source))).toBe(true);
  expect(trimmed.sources.some((source) => source.endsWith('functions/knaps/list-knaps.ts'))).toBe(true);
  expect(JSON.stringify(trimmed).length).toBeLessThan(JSON.stringify(full).length / 5);
});

test('positions in our code map exactly as before; positions in node_modules map to nothing', () => {
  const before = new SourceMap(full as never);
  const after = new SourceMap(trimmed as never);
  let ours = 0;
  let theirs = 0;
  const wrong: string[] = [];
  code.forEach((line, lineNumber) => {
    for (let column = 0; column < line.length; column += 3) {
      const original = before.findEntry(lineNumber, column) as Record<string, unknown>;
      const now = after.findEntry(lineNumber, column) as Record<string, unknown>;
      const own = typeof original.originalSource === 'string' && isOwnSource(original.originalSource);
      if (own) ours += 1;
      else theirs += 1;
      const ok = own ? JSON.stringify(now) === JSON.stringify(original) : now.originalSource === undefined;
      if (!ok && wrong.length < 5) wrong.push(`${lineNumber}:${column} ${JSON.stringify(original)} -> ${JSON.stringify(now)}`);
    }
  });
  expect(wrong).toEqual([]);
  expect(ours).toBeGreaterThan(1000);
  expect(theirs).toBeGreaterThan(ours);
});

test("a bundling plugin's virtual module is not our code; our files and paths with colons elsewhere are", () => {
  expect(isOwnSource('../../cdk.out/bundling-temp-1/follows-entry:/work/main/shared/lambda/node-http.ts')).toBe(false);
  expect(isOwnSource('node_modules/@smithy/core/dist-es/index.js')).toBe(false);
  expect(isOwnSource('shared/lambda/node-http.ts')).toBe(true);
  expect(isOwnSource('functions/knaps/handler.ts')).toBe(true);
});
