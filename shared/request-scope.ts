export { correlationKeys, type RequestScope } from './domain/request-scope.js';

import type { RequestScope } from './domain/request-scope.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * Under `npm start`, what the local server knows of an invocation before its handler runs (its
 * function, its id, its round-trip counter), carried on the Lambda context it makes.
 */
export const OUTER_SCOPE = Symbol.for('knap.outerScope');

export const outerScopeOf = (context: object): RequestScope | undefined =>
  (context as { [OUTER_SCOPE]?: RequestScope })[OUTER_SCOPE];
