import { jest } from '@jest/globals';
import { SWEEP_MS } from '../../shared/deadlines.js';

/**
 * A fake clock (Date.now and timers) for every test of the file, for what the deadline watch
 * list (shared/deadlines.ts) bounds. Each test must leave nothing watched: its sweep then stops,
 * which is checked, and the next test starts with no interval of the last one's fake clock.
 */
export const sweepOnFakeClock = (): void => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
  });
  afterEach(() => {
    try {
      jest.advanceTimersByTime(SWEEP_MS);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
};
