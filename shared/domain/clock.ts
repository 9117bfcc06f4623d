/** Time source; injected so tests can move time (token expiry, rate windows). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with a `Z` and no milliseconds, the API's timestamp format. */
// toISOString always ends in `.sssZ` (and throws for an invalid date, as before): cut, not a
// regex. The last second written is kept: every metered request writes the current one.
let lastSecond = Number.NaN;
let lastText = '';
export const isoSeconds = (date: Date): string => {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = `${date.toISOString().slice(0, -5)}Z`;
    lastSecond = second;
  }
  return lastText;
};

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
