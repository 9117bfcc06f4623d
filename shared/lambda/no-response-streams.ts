/**
 * Lambda bundles only: stands in for `node:stream/web` and `node:stream/promises` (esbuild
 * aliases in scripts/lambda-bundle.mjs). Only @middy/core imports them, for response streaming
 * (`streamifyResponse`), which no function here uses; loading them took ~5 ms of every cold
 * start (scripts/measure-bundles.ts). test/cdk/bundle-aliases.test.ts pins that nothing else
 * imports them.
 */
const notBundled = (): never => {
  throw new Error('Response streaming is not bundled (shared/lambda/no-response-streams.ts)');
};

export class ReadableStream {
  constructor() {
    notBundled();
  }
}
export const pipeline = notBundled;
