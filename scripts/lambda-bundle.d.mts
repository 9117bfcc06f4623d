/** Types for scripts/lambda-bundle.mjs. */
export declare const ESM_REQUIRE_BANNER: string;
export declare const BUNDLE_TARGET: string;
export declare const BUNDLE_ALIASES: Readonly<Record<string, string>>;
export declare const CHUNKS: readonly {
  file: string;
  entry: string;
  define: string;
  format: 'esm' | 'cjs';
  onlyWith?: string;
}[];
export declare const CHUNK_DEFINES: Readonly<Record<string, string>>;
