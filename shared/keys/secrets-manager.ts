/**
 * Reads the token key secret (bundled only into functions that seal or open tokens) through the
 * SDK's Secrets Manager client: each attempt bounded by the HTTP handler's timeouts
 * (shared/lambda/bounded-http.ts), the whole read by SECRET_READ_DEADLINE_MS through the SDK's
 * `abortSignal`. A request waiting on it is bounded besides by its own answer-by time
 * (shared/http/api-handler.ts); the read is shared by the requests that need it (token-keyring.ts).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { boundedHttpHandler } from '../lambda/bounded-http.js';

/** Each attempt's bound: Secrets Manager answers in milliseconds. */
export const SECRET_READ_TIMEOUT_MS = 2_000;
/** The whole read's bound, retries included. */
export const SECRET_READ_DEADLINE_MS = 5_000;

let client: SecretsManagerClient | undefined;

/** The process's client, in the environment's region (and endpoint, AWS_ENDPOINT_URL*, as the SDK reads it). */
export const secretsClient = (region: string | undefined = process.env.AWS_REGION): SecretsManagerClient => {
  client ??= new SecretsManagerClient({
    region,
    maxAttempts: 3,
    requestHandler: boundedHttpHandler(SECRET_READ_TIMEOUT_MS),
  });
  return client;
};

/** GetSecretValue: the secret's string value; an error when it has none. */
export const readSecret = async (
  secretId: string,
  secrets: SecretsManagerClient = secretsClient(),
  deadlineMs: number = SECRET_READ_DEADLINE_MS,
): Promise<string> => {
  const abortSignal = AbortSignal.timeout(deadlineMs);
  let SecretString: string | undefined;
  try {
    ({ SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }), { abortSignal }));
  } catch (error) {
    // Out of time: a TimeoutError, as an attempt's own timeout is (the request answers 503).
    if (abortSignal.aborted) throw Object.assign(new Error('Secrets Manager did not answer in time'), { name: 'TimeoutError' });
    throw error;
  }
  if (!SecretString) throw new Error('The token key secret has no string value');
  return SecretString;
};
