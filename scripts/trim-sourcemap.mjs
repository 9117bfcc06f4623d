// @ts-check
/**
 * Keeps a bundle's source map for our own code only: every mapping into node_modules
 * (the AWS SDK, Powertools, middy...) becomes "unmapped", and the sources and names it
 * used are dropped. Stack traces still point at functions/ and shared/ lines; the map
 * shrinks from ~650-900 KB to a small fraction, so the asset stays well under 1 MB and
 * the first stack trace formatted in a container (shared/lambda/mapped-stacks.ts) has little to parse.
 *
 * Plain JavaScript on purpose: NodejsFunction runs it as an afterBundling hook with the
 * bare `node`, locally or in the bundling container.
 *
 * With `--root <dir>`, sources are also written relative to that folder (the project), so a
 * stack trace reads `shared/services/token-service.ts`, not a path of the machine that built it.
 *
 * Usage: node scripts/trim-sourcemap.mjs [--quiet] [--root <dir>] <file.map> [more.map ...]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** @param {string} segment @returns {number[]} */
const decodeSegment = (segment) => {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`Invalid base64 VLQ character ${JSON.stringify(char)}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
};

/** @param {number} value */
const encodeValue = (value) => {
  let vlq = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = '';
  do {
    let digit = vlq & 31;
    vlq >>>= 5;
    if (vlq > 0) digit |= 32;
    out += BASE64[digit];
  } while (vlq > 0);
  return out;
};

/**
 * @param {{ version: number; sources: string[]; sourcesContent?: (string | null)[]; names: string[]; mappings: string; [key: string]: unknown }} map
 * @param {(source: string) => boolean} keep
 */
export const trimSourceMap = (map, keep) => {
  const keptSources = new Map(); // old index -> new index
  const keptNames = new Map();
  const sources = [];
  const sourcesContent = [];
  const names = [];
  // Absolute state while decoding (relative fields accumulate across the whole map, except the column).
  let source = 0;
  let line = 0;
  let column = 0;
  let name = 0;
  // Relative state while encoding.
  let outSource = 0;
  let outLine = 0;
  let outColumn = 0;
  let outName = 0;

  const lines = map.mappings.split(';').map((generatedLine) => {
    let generatedColumn = 0;
    let outGeneratedColumn = 0;
    // Emit the first unmapped segment of every line, so no mapping seems to run on from an earlier line.
    let lastWasUnmapped = false;
    const segments = [];
    for (const segment of generatedLine === '' ? [] : generatedLine.split(',')) {
      const fields = decodeSegment(segment);
      generatedColumn += fields[0] ?? 0;
      let mapped = false;
      if (fields.length >= 4) {
        source += fields[1] ?? 0;
        line += fields[2] ?? 0;
        column += fields[3] ?? 0;
        if (fields.length >= 5) name += fields[4] ?? 0;
        mapped = keep(map.sources[source] ?? '');
      }
      if (!mapped) {
        // Code we do not map: one unmapped segment ends the previous mapping, more add nothing.
        if (lastWasUnmapped) continue;
        segments.push(encodeValue(generatedColumn - outGeneratedColumn));
        outGeneratedColumn = generatedColumn;
        lastWasUnmapped = true;
        continue;
      }
      if (!keptSources.has(source)) {
        keptSources.set(source, sources.length);
        sources.push(map.sources[source] ?? '');
        sourcesContent.push(map.sourcesContent?.[source] ?? null);
      }
      const newSource = /** @type {number} */ (keptSources.get(source));
      let encoded =
        encodeValue(generatedColumn - outGeneratedColumn) +
        encodeValue(newSource - outSource) +
        encodeValue(line - outLine) +
        encodeValue(column - outColumn);
      if (fields.length >= 5) {
        if (!keptNames.has(name)) {
          keptNames.set(name, names.length);
          names.push(map.names[name] ?? '');
        }
        const newName = /** @type {number} */ (keptNames.get(name));
        encoded += encodeValue(newName - outName);
        outName = newName;
      }
      segments.push(encoded);
      outGeneratedColumn = generatedColumn;
      outSource = newSource;
      outLine = line;
      outColumn = column;
      lastWasUnmapped = false;
    }
    return segments.join(',');
  });

  const trimmed = { ...map, sources, names, mappings: lines.join(';') };
  if (map.sourcesContent) trimmed.sourcesContent = sourcesContent;
  else delete trimmed.sourcesContent;
  return trimmed;
};

/**
 * Our code: anything not under node_modules, nor a bundling plugin's virtual module (esbuild
 * names one `<namespace>:<path>`: scripts/bundle-function.mjs makes re-exports, no code of ours).
 */
export const isOwnSource = (/** @type {string} */ source) =>
  !source.split(/[\\/]/).some((segment) => segment === 'node_modules' || /^[\w-]+:$/.test(segment));

/**
 * The map's sources, as paths from `root` instead of from the map's folder.
 * @template {{ sources: string[] }} M
 * @param {M} map @param {string} mapFile @param {string} root @returns {M}
 */
const sourcesFromRoot = (map, mapFile, root) => ({
  ...map,
  sources: map.sources.map((source) =>
    relative(root, resolve(dirname(mapFile), source))
      .split(sep)
      .join('/'),
  ),
});

/**
 * Trims a map file in place (our sources only; named from `root` when given).
 * @param {string} file @param {string} [root] @returns {{ before: number; after: number }} its sizes
 */
export const trimMapFile = (file, root) => {
  const before = readFileSync(file, 'utf8');
  const trimmed = trimSourceMap(JSON.parse(before), isOwnSource);
  const after = JSON.stringify(root ? sourcesFromRoot(trimmed, file, root) : trimmed);
  writeFileSync(file, after);
  return { before: before.length, after: after.length };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? args.splice(rootAt, 2)[1] : undefined;
  // --quiet: nothing printed but errors (the synth runs it for every function).
  const quietAt = args.indexOf('--quiet');
  const quiet = quietAt >= 0 && args.splice(quietAt, 1).length > 0;
  const files = args;
  if (files.length === 0 || (rootAt >= 0 && !root)) {
    console.error('Usage: node scripts/trim-sourcemap.mjs [--quiet] [--root <dir>] <file.map> [more.map ...]');
    process.exit(2);
  }
  for (const file of files) {
    const { before, after } = trimMapFile(file, root);
    if (!quiet) console.error(`trim-sourcemap: ${file} ${before} -> ${after} bytes`);
  }
}
