import { type ApiClient, effectiveRateLimit, liveSecretMatching } from '../domain/clients.js';
import { isoSeconds } from '../domain/clock.js';
import { newWriteToken } from '../domain/credentials.js';
import { type RateState, rateState, windowStart } from '../domain/rate-limit.js';
import type { MeteredClient, RequestGuard } from '../domain/repository.js';
import type { Deps } from '../runtime.js';

export type MeterOutcome =
  | { kind: 'ok'; client: ApiClient; rate: RateState }
  | { kind: 'unknown' }
  /** Wrong secret, or a token from an earlier generation (regenerated or revoked since). */
  | { kind: 'mismatch'; client: ApiClient }
  | { kind: 'revoked'; client: ApiClient }
  | { kind: 'limited'; client: ApiClient; rate: RateState };

/**
 * What this container last saw per client, to guess which conditional write will succeed
 * first: usually the counter is already in the current window, and the client's limit is
 * of the same kind (its own, or the default) as last time.
 */
const lastSeen = new Map<string, { window: number; limit: 'own' | 'default'; orgName: string }>();
const MAX_REMEMBERED = 10_000;

const remember = (clientId: string, window: number, client: ApiClient): void => {
  if (lastSeen.size >= MAX_REMEMBERED) lastSeen.clear();
  lastSeen.set(clientId, { window, limit: limitKind(client), orgName: client.orgName });
};

/**
 * Clients whose metering was refused (at their limit, revoked, a stale token), by the window
 * it happened in: while it lasts, no read goes beside their metering write, so a flood of
 * refused requests costs the table no more than the refusals did before.
 */
const refusedIn = new Map<string, number>();

/**
 * The organization of a client this container has metered before (a client never changes
 * organization), so a read of the organization's items can go beside the metering write;
 * undefined for a client not seen yet, or refused in this window. A hint only: whoever uses
 * it compares it with the metered client's organization before trusting what it read.
 */
export const knownOrgOf = (clientId: string, now: Date): string | undefined =>
  refusedIn.get(clientId) === windowStart(now) ? undefined : lastSeen.get(clientId)?.orgName;

const limitKind = (client: Pick<ApiClient, 'rateLimit'>): 'own' | 'default' => (client.rateLimit === null ? 'default' : 'own');

const guardHolds = (client: ApiClient, guard: RequestGuard, now: Date): boolean => {
  if ('assertion' in guard) return true;
  return 'secretHash' in guard
    ? liveSecretMatching(client, guard.secretHash, now) !== null
    : client.generation === guard.generation;
};

/** Why a conditional write was refused, from the item as it is now; null means "retry". */
const diagnose = (
  state: MeteredClient | null,
  guard: RequestGuard,
  window: number,
  now: Date,
  defaultLimit: number,
): MeterOutcome | null => {
  if (!state) return { kind: 'unknown' };
  const { client } = state;
  // A wrong secret learns nothing about the client, not even that it is revoked.
  if ('secretHash' in guard && !guardHolds(client, guard, now)) return { kind: 'mismatch', client };
  if (client.status === 'revoked') return { kind: 'revoked', client };
  if (!guardHolds(client, guard, now)) return { kind: 'mismatch', client };
  // A revoked token is as unknown as a deleted one was.
  if ('notRevoked' in guard && guard.notRevoked?.some((id) => id in client.revocations)) return { kind: 'unknown' };
  const limit = effectiveRateLimit(client, defaultLimit);
  if (state.window === window && state.count >= limit) {
    return { kind: 'limited', client, rate: rateState(limit, state.count, window, now) };
  }
  return null;
};

/**
 * Authenticates and counts one request of a client in a single conditional UpdateItem
 * (exact under concurrency: DynamoDB evaluates the limit and increments atomically).
 * A refused write tells us why; a window roll-over costs one more write, once a minute.
 */
export const meterRequest = async (deps: Deps, clientId: string, guard: RequestGuard): Promise<MeterOutcome> => {
  const outcome = await meter(deps, clientId, guard);
  if (outcome.kind !== 'ok') {
    if (refusedIn.size >= MAX_REMEMBERED) refusedIn.clear();
    refusedIn.set(clientId, windowStart(deps.clock.now()));
  }
  return outcome;
};

const meter = async (deps: Deps, clientId: string, presented: RequestGuard): Promise<MeterOutcome> => {
  let guard = presented;
  const now = deps.clock.now();
  let window = windowStart(now);
  const seen = lastSeen.get(clientId);
  let mode: 'continue' | 'open' = seen?.window === window ? 'continue' : 'open';
  let limit = seen?.limit ?? 'default';
  let last: MeteredClient | null = null;
  // One per request: the SDK's retry of a write whose answer was lost is then not counted twice.
  const writeToken = newWriteToken();
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const result = await deps.repo.countRequest({
      clientId,
      guard,
      window,
      now: isoSeconds(now),
      defaultLimit: deps.defaultRateLimit,
      mode,
      limit,
      writeToken,
    });
    if (result.applied) {
      remember(clientId, window, result.state.client);
      const { client, count } = result.state;
      return { kind: 'ok', client, rate: rateState(effectiveRateLimit(client, deps.defaultRateLimit), count, window, now) };
    }
    const outcome = diagnose(result.state, guard, window, now, deps.defaultRateLimit);
    if (outcome) return outcome;
    // The right secret, stored the way earlier versions stored it: check it there (and move it).
    if ('secretHash' in guard && !guard.legacy && result.state?.client.legacySecret) {
      guard = { secretHash: guard.secretHash, legacy: { createdAt: result.state.client.createdAt } };
    }
    last = result.state;
    if (result.state) limit = limitKind(result.state.client);
    const stored = result.state?.window ?? null;
    if (stored !== null && stored > window) window = stored; // another container's clock is ahead: join its window
    mode = stored !== null && stored >= window ? 'continue' : 'open';
  }
  // The counter moved under us every time (requests and the refunds of revoked tokens' counts
  // racing at the limit): the client is at its limit, which is what a 429 says; retry soon.
  if (last) {
    const full = effectiveRateLimit(last.client, deps.defaultRateLimit);
    return { kind: 'limited', client: last.client, rate: rateState(full, full, window, now) };
  }
  throw new Error(`Rate-limit counter for ${clientId} kept changing under contention`);
};
