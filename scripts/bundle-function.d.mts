/** Types of scripts/bundle-function.mjs, for the TypeScript that imports it (tests). */
export declare const routeTableSource: (text: string) => string;
export declare const bundleFunction: (root: string, entry: string, outdir: string) => Promise<void>;
export declare const foldSharedChunkIntoIndex: (outdir: string) => void;
export declare const withPureSchemaCalls: (text: string, path: string, options?: { describe?: boolean }) => string;
