/**
 * Reads the token key secret (bundled only into functions that seal or open tokens): one
 * signed GetSecretValue call (shared/aws/json-call.ts), each attempt bounded, without the SDK's
 * client, which would bring `@smithy/core` to every cold start of these functions. Where the
 * endpoint or the credentials are the SDK's to work out, its client reads the secret.
 */
import { environmentCredentials, regionalEndpoint } from '../aws/environment.js';
import { callAwsJson, type JsonCallTarget } from '../aws/json-call.js';

/** Each attempt's bound: Secrets Manager answers in milliseconds; three attempts stay well inside a request. */
export const SECRET_READ_TIMEOUT_MS = 2_000;

/**
 * Where a Lambda function's read goes, as the SDK would send it: its region's endpoint and its
 * environment's credentials; undefined elsewhere (a laptop's profile) or when the SDK must
 * decide (shared/aws/environment.ts).
 */
export const secretsTarget = (env: NodeJS.ProcessEnv = process.env): JsonCallTarget | undefined => {
  const region = env.AWS_REGION;
  if (!env.AWS_LAMBDA_FUNCTION_NAME || !region) return undefined;
  const url = regionalEndpoint('secretsmanager', region, env);
  const credentials = environmentCredentials(env);
  return url && credentials ? { url, region, credentials } : undefined;
};

/** Set by esbuild in deployed bundles (lib/knap-function.ts): the SDK clients' file, beside the bundle. */
declare const KNAP_SDK_CLIENTS_CHUNK: string | undefined;

const loadSdkReader = async (): Promise<typeof import('../lambda/sdk-clients.js')> =>
  // The choice stays here, not in a helper: esbuild drops the source import only where the constant is set.
  typeof KNAP_SDK_CLIENTS_CHUNK === 'string'
    ? await import(new URL(KNAP_SDK_CLIENTS_CHUNK, import.meta.url).href)
    : await import('../lambda/sdk-clients.js');

/** GetSecretValue over one signed call: the secret's string value, if it has one. */
export const readSecretAt = async (target: JsonCallTarget, secretId: string): Promise<string | undefined> => {
  const answer = (await callAwsJson(target, {
    service: 'secretsmanager',
    target: 'secretsmanager.GetSecretValue',
    jsonVersion: '1.1',
    body: { SecretId: secretId },
    timeoutMs: SECRET_READ_TIMEOUT_MS,
  })) as { SecretString?: unknown };
  return typeof answer.SecretString === 'string' ? answer.SecretString : undefined;
};

export const readSecret = async (secretId: string, env: NodeJS.ProcessEnv = process.env): Promise<string> => {
  const target = secretsTarget(env);
  const value = target
    ? await readSecretAt(target, secretId)
    : await (await loadSdkReader()).readSecretViaSdk(secretId, env.AWS_REGION, SECRET_READ_TIMEOUT_MS);
  if (!value) throw new Error('The token key secret has no string value');
  return value;
};
