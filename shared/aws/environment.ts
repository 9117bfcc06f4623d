/**
 * Where a function's calls to an AWS service go and what they are signed with, as the SDK's
 * clients would decide, without loading them (about half of a cold start: docs/performance.md).
 * Only the cases that can be known for sure: for anything else the caller leaves the call to
 * the SDK. test/unit/aws-environment.test.ts holds both equal to the SDK's own answers.
 */
/** Credentials as the SDK's providers give them (its `AwsCredentialIdentity`). */
export interface AwsCredentialIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
  credentialScope?: string;
  accountId?: string;
}

/**
 * The partitions other than aws and aws-us-gov (whose DNS suffix is `amazonaws.com`), by the
 * region names the SDK's partition table matches them with (`regionRegex` of @aws-sdk/core's
 * partitions.json).
 */
const OTHER_PARTITIONS: readonly { regions: RegExp; dnsSuffix: string }[] = [
  { regions: /^cn-\w+-\d+$/, dnsSuffix: 'amazonaws.com.cn' },
  { regions: /^eusc-(de)-\w+-\d+$/, dnsSuffix: 'amazonaws.eu' },
  { regions: /^us-iso-\w+-\d+$/, dnsSuffix: 'c2s.ic.gov' },
  { regions: /^us-isob-\w+-\d+$/, dnsSuffix: 'sc2s.sgov.gov' },
  { regions: /^eu-isoe-\w+-\d+$/, dnsSuffix: 'cloud.adc-e.uk' },
  { regions: /^us-isof-\w+-\d+$/, dnsSuffix: 'csp.hci.ic.gov' },
];

/**
 * A region as Lambda names one (`eu-central-1`, `us-gov-west-1`): not `local`, not
 * `aws-global`, not the SDK's FIPS pseudo-regions (`fips-us-east-1`, `us-east-1-fips`).
 */
const REGION = /^(?!fips-)[a-z]{2,}(-[a-z]+)+-\d+$/;

/**
 * A service's endpoint in `region` (`dynamodb`, `secretsmanager`) by the SDK's rules, or
 * undefined where they are the SDK's to apply: a region of another shape, FIPS or dual-stack
 * endpoints asked for (each service has quirks there), or an endpoint named in the
 * environment (`AWS_ENDPOINT_URL`, or the service's own `AWS_ENDPOINT_URL_<ID>`).
 */
export const regionalEndpoint = (
  service: 'dynamodb' | 'secretsmanager',
  region: string,
  env: NodeJS.ProcessEnv = process.env,
): URL | undefined => {
  if (!REGION.test(region) || isTrue(env.AWS_USE_FIPS_ENDPOINT) || isTrue(env.AWS_USE_DUALSTACK_ENDPOINT)) return undefined;
  // The SDK's names for the services in these variables (no literal of the other service's name in a bundle that never calls it).
  const serviceId = service === 'dynamodb' ? 'DYNAMODB' : 'SECRETS_MANAGER';
  if (env.AWS_ENDPOINT_URL || env[`AWS_ENDPOINT_URL_${serviceId}`]) return undefined;
  const dnsSuffix = OTHER_PARTITIONS.find((partition) => partition.regions.test(region))?.dnsSuffix ?? 'amazonaws.com';
  return new URL(`https://${service}.${region}.${dnsSuffix}`);
};

const isTrue = (value: string | undefined): boolean => value?.toLowerCase() === 'true';

/**
 * The credentials of the environment, read at each call as the SDK's `fromEnv` reads them (a
 * Lambda function's are always there), or undefined when it holds none: the SDK's chain would
 * look further (a profile, SSO), and the wire leaves the calls to it.
 */
export const environmentCredentials = (
  env: NodeJS.ProcessEnv = process.env,
): (() => Promise<AwsCredentialIdentity>) | undefined => {
  if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY) return undefined;
  return async () => {
    const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_CREDENTIAL_EXPIRATION } = env;
    if (!AWS_ACCESS_KEY_ID || !AWS_SECRET_ACCESS_KEY) throw new Error('The environment no longer holds AWS credentials');
    return {
      accessKeyId: AWS_ACCESS_KEY_ID,
      secretAccessKey: AWS_SECRET_ACCESS_KEY,
      ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}),
      ...(AWS_CREDENTIAL_EXPIRATION ? { expiration: new Date(AWS_CREDENTIAL_EXPIRATION) } : {}),
      ...(env.AWS_CREDENTIAL_SCOPE ? { credentialScope: env.AWS_CREDENTIAL_SCOPE } : {}),
      ...(env.AWS_ACCOUNT_ID ? { accountId: env.AWS_ACCOUNT_ID } : {}),
    };
  };
};

/** Where a service's calls go and what signs them. */
export interface ServiceTarget {
  url: URL;
  region: string;
  credentials: () => Promise<AwsCredentialIdentity>;
}

/**
 * A Lambda function's calls to `service` in `region`, as the SDK would send them: the region's
 * endpoint and the environment's credentials; undefined outside Lambda (a laptop's profile may
 * name other credentials or an endpoint) or where regionalEndpoint leaves the call to the SDK.
 */
export const lambdaTarget = (
  service: 'dynamodb' | 'secretsmanager',
  region: string,
  env: NodeJS.ProcessEnv = process.env,
): ServiceTarget | undefined => {
  if (!env.AWS_LAMBDA_FUNCTION_NAME) return undefined;
  const url = regionalEndpoint(service, region, env);
  const credentials = environmentCredentials(env);
  return url && credentials ? { url, region, credentials } : undefined;
};
