/**
 * Lambda bundles only: stands in for `@smithy/core/event-streams` (esbuild alias in
 * scripts/lambda-bundle.mjs). The SDK's protocols import it dynamically, for operations that stream
 * events; DynamoDB, SQS and Secrets Manager have none. Bundled, that one dynamic import made
 * esbuild wrap some 150 SDK modules for lazy init, and parse 15 KB never run: together ~5 ms
 * of every cold start (scripts/measure-bundles.ts). test/cdk/bundle-aliases.test.ts pins that
 * nothing else imports it.
 */
const notBundled = (): never => {
  throw new Error('Event streams are not bundled (shared/lambda/no-event-streams.ts)');
};

export const EventStreamSerde = notBundled;
export const eventStreamSerdeProvider = notBundled;
