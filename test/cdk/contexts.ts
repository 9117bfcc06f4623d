/**
 * Context of the one non-default synthesis the CDK suites share (config.test.ts and
 * production.test.ts): a production stage with every setting given, as `-c` gives them
 * (strings). One object, so test/cdk/synth.ts synthesizes it once per run.
 */
export const PRODUCTION_CONTEXT: Record<string, unknown> = {
  stageName: 'prod',
  logLevel: 'debug',
  defaultRateLimit: '250',
  throttleRateLimit: '15',
  throttleBurstLimit: '30',
  corsAllowedOrigins: 'https://app.example.com',
  dev: 'false',
  account: '123456789012',
  region: 'eu-west-1',
  domainName: 'api.example.com',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'example.com',
  reservedConcurrency: 'token=5,*=2',
  routeThrottles: 'list-knaps=50/100,admin-audit-events=2/4',
  adminThrottle: '5/10',
  storedTokensUntil: '2026-12-24T00:00:00Z',
};
