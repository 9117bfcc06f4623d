/** Types for scripts/bundle-tracing.mjs. */
export declare const bundleTracing: (root: string, outdir: string) => Promise<boolean>;
