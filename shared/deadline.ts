import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * When the current request must have its answer (epoch ms). Every DynamoDB call made on
 * its behalf, retries included, gives up by then, so a stalled or throttling DynamoDB
 * becomes a 503 inside the Lambda timeout instead of a hung invocation.
 */
export const requestDeadline = new AsyncLocalStorage<number>();
