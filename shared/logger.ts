import { Logger } from '@aws-lambda-powertools/logger';

export const createLogger = (): Logger => new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'knap-api' });
