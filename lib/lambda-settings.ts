/**
 * Plain values shared by the CDK functions (lib/knap-function.ts) and the local invoke
 * (scripts/invoke-core.ts), kept free of CDK imports so the invoke stays fast to start.
 */
export const LAMBDA_SETTINGS = {
  runtime: 'nodejs22.x',
  memoryMb: 256,
  timeoutSeconds: 10,
  /**
   * Per DynamoDB attempt (the SDK makes up to 3). Two seconds is ~100 times DynamoDB's
   * usual latency and leaves room for a retry inside the 10 s function timeout.
   */
  dynamodbTimeoutMs: 2000,
  serviceName: 'knap-api',
  /** The deliverer's timeout: a delivery to every endpoint of an organization at 10 s each, in parallel, and its bookkeeping. */
  delivererTimeoutSeconds: 30,
} as const;
