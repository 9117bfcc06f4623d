import type { Clock } from '../../shared/domain/clock.js';

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  constructor(private current = new Date('2026-11-23T10:00:05Z')) {}

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date | string): void {
    this.current = new Date(date);
  }

  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}
