/**
 * The token key secret read through the SDK's Secrets Manager client, where the signed call of
 * secrets-manager.ts cannot be sure of the endpoint or the credentials as the SDK would be (an
 * endpoint, FIPS or dual-stack asked for in the environment). Deployed, this file is beside the
 * bundle (in `sdk-clients.mjs`, CHUNKS of scripts/lambda-bundle.mjs), loaded only then.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;

/** GetSecretValue through the SDK, in `region`, each attempt within `timeoutMs` as the signed call's are. */
export const readSecretViaSdk = async (
  secretId: string,
  region: string | undefined,
  timeoutMs: number,
): Promise<string | undefined> => {
  client ??= new SecretsManagerClient({
    region,
    maxAttempts: 3,
    requestHandler: { requestTimeout: timeoutMs, connectionTimeout: timeoutMs },
  });
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  return SecretString;
};
