/** What the functions use of Powertools' logger and metrics (powertools.ts): deployed, a file of its own, powertools.cjs. */
export { Logger } from '@aws-lambda-powertools/logger';
export { Metrics } from '@aws-lambda-powertools/metrics';
