/** Time source; injected so tests can move time (token expiry, rate windows). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with a `Z` and no milliseconds, the API's timestamp format. */
// toISOString always ends in `.sssZ` (and throws for an invalid date, as before): cut, not a regex.
export const isoSeconds = (date: Date): string => `${date.toISOString().slice(0, -5)}Z`;

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
