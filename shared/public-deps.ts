/**
 * The deps of the public functions (metadata, OpenAPI, docs): they read no table, send no
 * run and handle no token, so their bundles carry no AWS SDK at all and start fastest. Any
 * use of what they lack is a wiring mistake, and says so.
 */
import { DEFAULT_RATE_LIMIT } from './domain/clients.js';
import { systemClock } from './domain/clock.js';
import type { Repository } from './domain/repository.js';
import { unavailableKeyring } from './domain/sealed-tokens.js';
import { createLogger } from './logger.js';
import { noMetrics } from './metrics.js';
import type { Deps } from './runtime.js';

const lacking = (what: string) => () => {
  throw new Error(`A public function has no ${what}`);
};

/** A request's view of no table is no table. */
const noTable: Repository = new Proxy({} as Repository, {
  get: (_target, name) => (name === 'within' ? () => noTable : lacking(`table (${String(name)})`)),
});

let deps: Deps | undefined;

export const publicDeps = (): Deps => {
  deps ??= {
    repo: noTable,
    clock: systemClock,
    log: createLogger(),
    // They count nothing: no EMF library in their bundles.
    metrics: noMetrics,
    defaultRateLimit: DEFAULT_RATE_LIMIT,
    deliveries: {
      enqueue: async () => lacking('delivery queue')(),
      enqueueMeetingFanOut: async () => lacking('delivery queue')(),
    },
    tokenKeys: unavailableKeyring('A public function has no token keys'),
  };
  return deps;
};
