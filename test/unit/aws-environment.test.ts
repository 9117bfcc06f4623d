import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { environmentCredentials, regionalEndpoint } from '../../shared/aws/environment.js';

/**
 * Without its clients, the endpoint and credentials of a call are worked out as the SDK works
 * them out: held equal here to the SDK's own endpoint rules for every region its partition
 * table lists, and to its `fromEnv` for the environments a function meets.
 */
interface Partition {
  id: string;
  regions: Record<string, unknown>;
}
const require = createRequire(import.meta.url);
const partitionsFile = join(
  dirname(require.resolve('@aws-sdk/core/package.json')),
  'dist-es/submodules/client/util-endpoints/lib/aws/partitions.js',
);
const partitionsText = readFileSync(partitionsFile, 'utf8');
const { partitions } = JSON.parse(partitionsText.slice(partitionsText.indexOf('{'), partitionsText.lastIndexOf('}') + 1)) as {
  partitions: Partition[];
};
const regions = partitions.flatMap((partition) => Object.keys(partition.regions));

const sdkEndpoints = {
  dynamodb: new DynamoDBClient({ region: 'us-east-1' }).config.endpointProvider,
  secretsmanager: new SecretsManagerClient({ region: 'us-east-1' }).config.endpointProvider,
};

test('the partition table has every partition the rules know, and regions in each', () => {
  expect(partitions.map((partition) => partition.id).sort()).toEqual(
    ['aws', 'aws-cn', 'aws-eusc', 'aws-iso', 'aws-iso-b', 'aws-iso-e', 'aws-iso-f', 'aws-us-gov'].sort(),
  );
  expect(regions.length).toBeGreaterThan(40);
});

describe.each(['dynamodb', 'secretsmanager'] as const)('%s', (service) => {
  test.each(regions)('%s: the SDK rules endpoint, or none where they are the SDK to apply', (region) => {
    const ours = regionalEndpoint(service, region, {});
    if (/-global$/.test(region)) {
      expect(ours).toBeUndefined();
      return;
    }
    const sdk = sdkEndpoints[service]({ Region: region, UseFIPS: false, UseDualStack: false });
    expect(ours?.href).toBe(sdk.url.href);
  });

  test('a region of a shape not listed yet gets its partition by name', () => {
    for (const region of ['ap-southeast-9', 'cn-southwest-2', 'us-gov-central-1', 'us-isob-west-2', 'eu-isoe-north-1']) {
      const sdk = sdkEndpoints[service]({ Region: region, UseFIPS: false, UseDualStack: false });
      expect(regionalEndpoint(service, region, {})?.href).toBe(sdk.url.href);
    }
  });

  test('FIPS, dual-stack or an endpoint in the environment: left to the SDK', () => {
    const id = service === 'dynamodb' ? 'DYNAMODB' : 'SECRETS_MANAGER';
    for (const env of [
      { AWS_USE_FIPS_ENDPOINT: 'true' },
      { AWS_USE_DUALSTACK_ENDPOINT: 'TRUE' },
      { AWS_ENDPOINT_URL: 'https://proxy.example' },
      { [`AWS_ENDPOINT_URL_${id}`]: 'https://proxy.example' },
    ]) {
      expect(regionalEndpoint(service, 'eu-central-1', env)).toBeUndefined();
    }
    expect(regionalEndpoint(service, 'eu-central-1', { AWS_USE_FIPS_ENDPOINT: 'false' })?.host).toBe(
      `${service}.eu-central-1.amazonaws.com`,
    );
    expect(regionalEndpoint(service, 'local', {})).toBeUndefined();
    // The SDK's FIPS pseudo-regions are FIPS endpoints: its to work out.
    expect(regionalEndpoint(service, 'fips-us-east-1', {})).toBeUndefined();
    expect(regionalEndpoint(service, 'us-east-1-fips', {})).toBeUndefined();
  });
});

test.each([
  [
    'a Lambda function: key, secret, session token',
    { AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 's1', AWS_SESSION_TOKEN: 't1' },
  ],
  ['long-term keys only', { AWS_ACCESS_KEY_ID: 'AKIA2', AWS_SECRET_ACCESS_KEY: 's2' }],
  [
    'with expiry, scope and account',
    {
      AWS_ACCESS_KEY_ID: 'AKIA3',
      AWS_SECRET_ACCESS_KEY: 's3',
      AWS_SESSION_TOKEN: 't3',
      AWS_CREDENTIAL_EXPIRATION: '2026-11-27T13:00:00Z',
      AWS_CREDENTIAL_SCOPE: 'eu-central-1',
      AWS_ACCOUNT_ID: '123456789012',
    },
  ],
])('%s: what the SDK reads from the environment', async (_, env) => {
  const saved = { ...process.env };
  try {
    Object.assign(process.env, env);
    const sdk = await fromEnv()();
    const ours = await environmentCredentials(env)?.();
    // The SDK also records, for its user agent, which provider found them.
    const { $source: _source, ...sdkCredentials } = sdk as typeof sdk & { $source?: unknown };
    expect(ours).toEqual(sdkCredentials);
  } finally {
    process.env = saved;
  }
});

test('no key, or a key without its secret: none (the SDK would look further)', () => {
  expect(environmentCredentials({})).toBeUndefined();
  expect(environmentCredentials({ AWS_ACCESS_KEY_ID: 'AKIA1' })).toBeUndefined();
  expect(environmentCredentials({ AWS_SECRET_ACCESS_KEY: 's1' })).toBeUndefined();
});
