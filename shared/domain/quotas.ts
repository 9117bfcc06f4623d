/**
 * Per-organization quotas (contract, "Webhooks operators trust"): what one tenant may hold, so
 * that no tenant can crowd out the others. Each is a deployment setting with a default, and an
 * operator may set an organization's own (`set-quota`). Exceeding one is a 409; an organization
 * already over a quota (it was lowered) keeps what it has: only what would add to the count is
 * refused.
 */
import type { ScheduleInfo } from '../schedules/types.js';

export const QUOTA_KINDS = ['knaps', 'subhourly', 'endpoints', 'clients'] as const;
export type QuotaKind = (typeof QUOTA_KINDS)[number];
export type QuotaLimits = Record<QuotaKind, number>;

/** The contract's cap on webhook endpoints: no setting raises it. */
export const MAX_ENDPOINTS = 20;

/** Defaults no lower than the contract's floors (5,000 Knaps, 500 sub-hourly schedules, 50 clients). */
export const DEFAULT_QUOTAS: QuotaLimits = Object.freeze({ knaps: 5_000, subhourly: 500, endpoints: MAX_ENDPOINTS, clients: 50 });

/** The deployment settings (environment variables; CDK context `quotas`) that change a default. */
export const QUOTA_ENV: Record<QuotaKind, string> = {
  knaps: 'QUOTA_KNAPS',
  subhourly: 'QUOTA_SUBHOURLY_SCHEDULES',
  endpoints: 'QUOTA_WEBHOOK_ENDPOINTS',
  clients: 'QUOTA_CLIENTS',
};

/** What each quota counts, as messages and the CLI say it. */
export const QUOTA_NOUNS: Record<QuotaKind, string> = {
  knaps: 'Knaps',
  subhourly: 'schedules more frequent than hourly',
  endpoints: 'webhook endpoints',
  clients: 'active API clients',
};

/** A quota as set: a whole number from 0; endpoints never above MAX_ENDPOINTS. */
export const checkedLimit = (kind: QuotaKind, value: number): number | null =>
  Number.isInteger(value) && value >= 0 ? (kind === 'endpoints' ? Math.min(value, MAX_ENDPOINTS) : value) : null;

/** The deployment's defaults: DEFAULT_QUOTAS, each changed by its setting when that is a whole number. */
export const quotasFromEnv = (env: NodeJS.ProcessEnv = process.env): QuotaLimits => {
  const limits = { ...DEFAULT_QUOTAS };
  for (const kind of QUOTA_KINDS) {
    const raw = env[QUOTA_ENV[kind]];
    const value = raw === undefined || raw.trim() === '' ? null : checkedLimit(kind, Number(raw));
    if (value !== null) limits[kind] = value;
  }
  return limits;
};

/** A creation (or change) that would take an organization past one of its quotas. */
export class QuotaExceededError extends Error {
  override readonly name = 'QuotaExceededError';
  constructor(
    readonly kind: QuotaKind,
    readonly limit: number,
  ) {
    super(
      `Your organization has reached its quota of ${limit} ${QUOTA_NOUNS[kind]}; remove one first, or ask your operator for a higher quota`,
    );
  }
}

/**
 * More frequent than hourly: every N minutes with N under 60 (hourly windows and minute lists
 * of a cron are read as such). Active or not: the quota is on what an organization holds.
 */
export const isSubHourly = (info: Pick<ScheduleInfo, 'schedule_type' | 'interval'> | null | undefined): boolean =>
  info != null && info.schedule_type === 'minutely' && info.interval < 60;

/** An organization's counts and its own quotas (null: the deployment's default). */
export interface QuotaUsage {
  counts: Record<QuotaKind, number>;
  own: Record<QuotaKind, number | null>;
}
