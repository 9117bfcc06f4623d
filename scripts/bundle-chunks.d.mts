/** Types for scripts/bundle-chunks.mjs. */
export declare const bundleChunks: (root: string, outdir: string) => Promise<string[]>;
