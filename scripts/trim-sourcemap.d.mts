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
export declare const trimMapFile: (file: string, root?: string) => { before: number; after: number };
