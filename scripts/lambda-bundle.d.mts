/** Types for scripts/lambda-bundle.mjs. */
export declare const ESM_REQUIRE_BANNER: string;
export declare const BUNDLE_TARGET: string;
export declare const TRACING_CHUNK: string;
