/** Reads the token key secret (bundled only into functions that seal or open tokens; the client is made on first read). */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;

export const readSecret = async (secretId: string): Promise<string> => {
  client ??= new SecretsManagerClient({ region: process.env.AWS_REGION, maxAttempts: 3 });
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!SecretString) throw new Error('The token key secret has no string value');
  return SecretString;
};
