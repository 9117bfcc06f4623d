/** Fixed one-minute windows: exact, and one counter per client is enough. */
export const RATE_WINDOW_SECONDS = 60;

export const windowStart = (now: Date): number => {
  const seconds = Math.floor(now.getTime() / 1000);
  return seconds - (seconds % RATE_WINDOW_SECONDS);
};

/** What the RateLimit-* headers report for one request. */
export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets (>= 1). */
  resetSeconds: number;
  /** The window's start (epoch seconds) the request was counted in. */
  window: number;
}

export const rateState = (limit: number, used: number, window: number, now: Date): RateState => ({
  limit,
  remaining: Math.max(0, limit - used),
  resetSeconds: Math.max(1, window + RATE_WINDOW_SECONDS - Math.floor(now.getTime() / 1000)),
  window,
});

/** Requests per minute each organization admin may make of the admin API, unless ADMIN_RATE_LIMIT says otherwise. */
export const DEFAULT_ADMIN_RATE_LIMIT = 120;
/** The most an admin rate limit setting may say. */
export const MAX_ADMIN_RATE_LIMIT = 10_000;
