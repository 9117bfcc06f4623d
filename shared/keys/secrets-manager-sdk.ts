/**
 * The token key secret read through the SDK's Secrets Manager client, where the signed call of
 * secrets-manager.ts cannot be sure of the endpoint or the credentials as the SDK would be (an
 * endpoint, FIPS or dual-stack asked for in the environment). Deployed, this file is beside the
 * bundle (in `sdk-clients.mjs`, CHUNKS of scripts/lambda-bundle.mjs), loaded only then.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** Each attempt's bound (the same as secrets-manager.ts's, which imports this file only when it needs it). */
const SECRET_READ_TIMEOUT_MS = 2_000;

let client: SecretsManagerClient | undefined;

export const readSecretViaSdk = async (secretId: string, region: string | undefined): Promise<string | undefined> => {
  // Each attempt bounded as the signed call's are (secrets-manager.ts).
  client ??= new SecretsManagerClient({
    region,
    maxAttempts: 3,
    requestHandler: { requestTimeout: SECRET_READ_TIMEOUT_MS, connectionTimeout: SECRET_READ_TIMEOUT_MS },
  });
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  return SecretString;
};
