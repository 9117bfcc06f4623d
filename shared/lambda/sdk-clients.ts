/**
 * The AWS SDK's clients, for the calls the functions make without them everywhere else
 * (shared/store/dynamo-sdk.ts and shared/keys/secrets-manager-sdk.ts say when). Deployed, this
 * is one file beside the bundle, `sdk-clients.mjs` (CHUNKS of scripts/lambda-bundle.mjs), so
 * both clients share one copy of `@smithy/core`; the first call that needs either loads it.
 */
export { readSecretViaSdk } from '../keys/secrets-manager-sdk.js';
export { createSdkDocuments } from '../store/dynamo-sdk.js';
