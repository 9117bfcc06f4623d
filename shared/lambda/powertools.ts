import { createRequire } from 'node:module';
import type * as Chunk from './powertools-chunk.js';

/** Set by esbuild in deployed bundles (lib/knap-function.ts): Powertools' file, beside the bundle. */
declare const KNAP_POWERTOOLS_CHUNK: string | undefined;

let loaded: typeof Chunk | undefined;

/**
 * Powertools' Logger and Metrics (~32 KB minified) load with a container's first log line or
 * figure (shared/logger.ts, shared/lambda/metrics.ts): most requests write neither, and a cold
 * start that parses them takes about a tenth longer. Deployed, a file beside the bundle
 * (powertools.cjs); from source, the packages. `require`, not `import()`: a line is written at once.
 */
export const powertools = (): typeof Chunk => {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    loaded =
      typeof KNAP_POWERTOOLS_CHUNK === 'string'
        ? (require(KNAP_POWERTOOLS_CHUNK) as typeof Chunk)
        : {
            Logger: (require('@aws-lambda-powertools/logger') as typeof Chunk).Logger,
            Metrics: (require('@aws-lambda-powertools/metrics') as typeof Chunk).Metrics,
          };
  }
  return loaded;
};
