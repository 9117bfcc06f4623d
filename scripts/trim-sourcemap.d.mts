/** Types for scripts/trim-sourcemap.mjs (plain JavaScript, so the bundling hook needs no TypeScript). */
export interface RawSourceMap {
  version: number;
  file?: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
  [key: string]: unknown;
}

export declare const trimSourceMap: (map: RawSourceMap, keep: (source: string) => boolean) => RawSourceMap;
export declare const isOwnSource: (source: string) => boolean;
export declare const sourcesFromRoot: <M extends { sources: string[] }>(map: M, mapFile: string, root: string) => M;
