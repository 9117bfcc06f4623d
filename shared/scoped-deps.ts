import type { RequestScope } from './domain/request-scope.js';
import type { Deps } from './runtime.js';

/**
 * The deps of one request's (or job's) work: its DynamoDB calls keep its deadline and count
 * against it, its log lines carry its keys. A few small objects per request, where an
 * AsyncLocalStorage would tax every promise of the process.
 */
// Its own module, importing only types: public functions' bundles carry no DynamoDB client.
export const scopedDeps = (deps: Deps, scope: RequestScope): Deps => ({
  ...deps,
  repo: deps.repo.within?.(scope) ?? deps.repo,
  log: deps.log.within?.(scope) ?? deps.log,
});
