/**
 * Reads the token key secret (bundled only into functions that seal or open tokens): one
 * signed GetSecretValue call (shared/aws/json-call.ts), each attempt bounded, without the SDK's
 * client, which would bring `@smithy/core` to every cold start of these functions. Where the
 * endpoint or the credentials are the SDK's to work out, its client reads the secret.
 */
import { lambdaTarget } from '../aws/environment.js';
import { callAwsJson, type JsonCallTarget } from '../aws/json-call.js';
import { loadSdkClients } from '../lambda/load-sdk-clients.js';

/** Each attempt's bound: Secrets Manager answers in milliseconds; three attempts stay well inside a request. */
export const SECRET_READ_TIMEOUT_MS = 2_000;

/**
 * Where a Lambda function's read goes, as the SDK would send it: its region's endpoint and its
 * environment's credentials; undefined elsewhere (a laptop's profile) or when the SDK must
 * decide (shared/aws/environment.ts).
 */
export const secretsTarget = (env: NodeJS.ProcessEnv = process.env): JsonCallTarget | undefined =>
  env.AWS_REGION ? lambdaTarget('secretsmanager', env.AWS_REGION, env) : undefined;

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
    : await (await loadSdkClients()).readSecretViaSdk(secretId, env.AWS_REGION, SECRET_READ_TIMEOUT_MS);
  if (!value) throw new Error('The token key secret has no string value');
  return value;
};
