/**
 * Wakes a waiting stream of a run when an event of that run is stored by the same process.
 *
 * Under `npm start` one process runs every function, so a report wakes the streams waiting on
 * its run at once instead of at their next read (up to a poll, 500 ms, later). Deployed, the
 * report and the stream are different Lambda invocations (a warm container serves one request
 * at a time): no signal crosses, and the stream's poll alone finds the event, as before. A
 * signal only ends a wait early; the stream still reads the chain to learn what is new.
 *
 * Bounded: one listener per waiting stream (at most 2 per client), removed when its wait ends.
 */
import { EventEmitter } from 'node:events';

const signals = new EventEmitter();
// Waiting streams of one run may be many (every watcher's); none leaks (each wait removes its own).
signals.setMaxListeners(0);

/** An event of `runId` was stored. */
export const signalRunEvent = (runId: string): void => {
  signals.emit(runId);
};

/** Resolves when an event of `runId` is stored in this process, or after `ms`, whichever comes first. */
export const nextRunSignal = (runId: string, ms: number): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signals.off(runId, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signals.once(runId, done);
  });
