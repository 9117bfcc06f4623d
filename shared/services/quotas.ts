/**
 * The per-organization quotas as use cases apply them (shared/domain/quotas.ts): a creation
 * reserves its place before it writes (one conditional write), gives it back when it did not
 * happen, and a removal gives its place back once it has happened.
 */
import { DEFAULT_QUOTAS, QuotaExceededError, type QuotaKind, type QuotaLimits } from '../domain/quotas.js';
import type { Deps } from '../runtime.js';

export const quotaDefaults = (deps: Deps): QuotaLimits => deps.quotas ?? DEFAULT_QUOTAS;

/** Takes one place of each kind, or throws QuotaExceededError (nothing taken). */
export const reserveQuota = async (deps: Deps, orgName: string, kinds: readonly QuotaKind[]): Promise<void> => {
  if (kinds.length === 0) return;
  const defaults = quotaDefaults(deps);
  const full = await deps.repo.reserveQuota(orgName, kinds, defaults);
  if (full === null) return;
  // Only when refused: the organization's own quota, to say which number was reached.
  const usage = await deps.repo.quotaUsage(orgName);
  throw new QuotaExceededError(full, usage.own[full] ?? defaults[full]);
};

/**
 * Gives places back. Never fails the request it ends: a count left one too high only refuses
 * a creation early, until `recount-quotas` (logged so an operator sees it).
 */
export const releaseQuota = async (deps: Deps, orgName: string, kinds: readonly QuotaKind[]): Promise<void> => {
  if (kinds.length === 0) return;
  try {
    await deps.repo.releaseQuota(orgName, kinds);
  } catch (error) {
    deps.log.error('Giving back a quota place failed; run recount-quotas', {
      org: orgName,
      kinds: kinds.join(','),
      error: (error as Error).name,
    });
  }
};
