import { createHash, randomUUID } from 'node:crypto';
import { epochSeconds } from '../domain/clock.js';
import {
  IDEMPOTENCY_LEASE_SECONDS,
  IDEMPOTENCY_TTL_SECONDS,
  isValidIdempotencyKey,
  type StoredResponse,
} from '../domain/idempotency.js';
import { toJson } from '../domain/storable-json.js';
import { ApiError, badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import type { Caller } from './request-state.js';

export interface IdempotentRequest {
  /** The Idempotency-Key header, if any. */
  key: string | undefined;
  /** The request body as parsed. */
  body: unknown;
}

/**
 * Runs `operation` at most once per (client, key) within 24 hours. Without a key it just
 * runs, at no extra cost. With one: a claim (one conditional put) first; the same key and body
 * again answer the stored response; another body is a 422; a claim still in flight a 409.
 * If the operation fails, the claim is given up so that a retry can run it; the retry gets the
 * same resource id, so an earlier write that did land is found rather than made twice.
 */
export const idempotent = async (
  deps: Deps,
  caller: Caller,
  request: IdempotentRequest,
  operation: (resourceId: string) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> => {
  // `replayed` first: a literal that starts with a spread is slow on Node.js 20 (docs/performance.md).
  if (request.key === undefined) return { replayed: false, ...(await operation(randomUUID())) };
  if (!isValidIdempotencyKey(request.key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  const clientId = caller.client.clientId;
  const requestHash = createHash('sha256').update(toJson(request.body)).digest('base64url');
  const now = epochSeconds(deps.clock.now());
  const claim = await deps.repo.claimIdempotencyKey(
    {
      clientId,
      key: request.key,
      requestHash,
      resourceId: randomUUID(),
      expiresAt: now + IDEMPOTENCY_TTL_SECONDS,
      leaseUntil: now + IDEMPOTENCY_LEASE_SECONDS,
    },
    now,
  );
  if (!claim.claimed) {
    const { existing } = claim;
    if (existing.requestHash !== requestHash) {
      throw new ApiError(422, 'This Idempotency-Key was already used with a different request body');
    }
    if (existing.state === 'in_flight' || !existing.response) {
      // When the first request cannot be running any more: a retry then runs, if it has not answered first.
      const wait = Math.max(1, existing.leaseUntil - now);
      throw new ApiError(409, `A request with this Idempotency-Key is still in progress; retry in ${wait} s`, {
        'Retry-After': String(wait),
      });
    }
    return { replayed: true, ...existing.response };
  }
  let response: StoredResponse;
  try {
    response = await operation(claim.resourceId);
  } catch (error) {
    await deps.repo.releaseIdempotencyKey(clientId, request.key, requestHash).catch((releaseError: unknown) => {
      // The lease ends the claim anyway; the caller must hear the first error.
      deps.log.warn('Releasing an idempotency claim failed', { error: (releaseError as Error).message });
    });
    throw error;
  }
  await deps.repo.completeIdempotencyKey(clientId, request.key, requestHash, response);
  return { replayed: false, ...response };
};
