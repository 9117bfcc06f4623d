/**
 * Loads the AWS SDK's clients (sdk-clients.ts) for a call that needs them: deployed, the file
 * beside the bundle; run from source, the module itself. One loader for the store's DynamoDB
 * client and the token keys' Secrets Manager reader.
 */

/** Set by esbuild in deployed bundles (lib/knap-function.ts): the SDK clients' file, beside the bundle. */
declare const KNAP_SDK_CLIENTS_CHUNK: string | undefined;

export const loadSdkClients = async (): Promise<typeof import('./sdk-clients.js')> =>
  // The choice stays here, not in a helper: esbuild drops the source import only where the constant is set.
  typeof KNAP_SDK_CLIENTS_CHUNK === 'string'
    ? await import(new URL(KNAP_SDK_CLIENTS_CHUNK, import.meta.url).href)
    : await import('./sdk-clients.js');
