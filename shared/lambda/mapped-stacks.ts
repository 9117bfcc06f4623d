/**
 * Stack traces that name our source files and lines, paid for only by the errors that need them.
 *
 * `--enable-source-maps` reads and parses the map of every bundle as it loads: 10 to 40 ms of
 * every cold start (scripts/measure-bundles.ts), for traces that only errors print. Instead the
 * bundles inject this module first (lib/knap-function.ts), which gives V8 a stack formatter
 * that reads a bundle's map the first time a stack through that bundle is formatted, that is
 * when an error's `stack` is first read (logged, or reported by the Lambda runtime).
 */
import type { SourceMap } from 'node:module';

// Built-ins are taken when a stack is first formatted, not imported: an ESM import of
// `node:fs` evaluates every export, `fs.promises` included, at every cold start.
const builtin = <ID extends 'node:fs' | 'node:module' | 'node:url'>(id: ID) => process.getBuiltinModule(id);

/** Each file's map, or null when it has none beside it; read once per container. */
const maps = new Map<string, SourceMap | null>();

const mapBeside = (file: string): SourceMap | null => {
  let map = maps.get(file);
  if (map === undefined) {
    map = null;
    if (file.startsWith('file://') || file.startsWith('/')) {
      try {
        const path = file.startsWith('file://') ? builtin('node:url').fileURLToPath(file) : file;
        map = new (builtin('node:module').SourceMap)(JSON.parse(builtin('node:fs').readFileSync(`${path}.map`, 'utf8')));
      } catch {
        // No readable map: the file's frames stay as V8 wrote them.
      }
    }
    maps.set(file, map);
  }
  return map;
};

/** A frame as V8 writes it, its bundle position replaced by the source position when the map has one. */
const mappedFrame = (site: NodeJS.CallSite): string => {
  const text = site.toString();
  const file = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!file || !line || !column) return text;
  const entry = mapBeside(file)?.findEntry(line - 1, column - 1) as
    | { originalSource?: string; originalLine?: number; originalColumn?: number }
    | undefined;
  if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return text;
  return text.replace(
    `${file}:${line}:${column}`,
    `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`,
  );
};

const headline = (error: unknown): string => {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return 'Error';
  }
};

/** V8's format (`Name: message` then `    at ...` lines), with our frames mapped. */
export const formatStack = (error: unknown, sites: NodeJS.CallSite[]): string =>
  [headline(error), ...sites.map((site) => `    at ${mappedFrame(site)}`)].join('\n');

Error.prepareStackTrace = formatStack;
