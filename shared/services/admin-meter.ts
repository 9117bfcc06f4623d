/** Each organization admin's requests to the admin API, counted per minute (shared/domain/rate-limit.ts). */
import { newWriteToken } from '../domain/credentials.js';
import { DEFAULT_ADMIN_RATE_LIMIT, type RateState, rateState, windowStart } from '../domain/rate-limit.js';
import type { Deps } from '../runtime.js';

/**
 * Counts one request of the admin (`subject` of `orgName`) in one conditional write:
 * `counted` false when the admin is at the limit (nothing was counted then).
 */
export const meterAdmin = async (
  deps: Deps,
  orgName: string,
  subject: string,
): Promise<{ counted: boolean; rate: RateState }> => {
  const now = deps.clock.now();
  const window = windowStart(now);
  const limit = deps.adminRateLimit ?? DEFAULT_ADMIN_RATE_LIMIT;
  const result = await deps.repo.meterAdminRequest({ orgName, subject, window, limit, writeToken: newWriteToken() });
  return { counted: result.counted, rate: rateState(limit, result.count, window, now) };
};
