import { createRequire } from 'node:module';
import type { Component } from 'chrono-node';
import type * as Chrono from './chrono.js';
import { quote, ScheduleError } from './errors.js';
import { spanText, type Token } from './tokens.js';
import { FILLER_WORDS } from './vocabulary.js';

/** Set by esbuild in deployed bundles (lib/knap-function.ts): chrono-node's file, beside the parser. */
declare const KNAP_CHRONO_CHUNK: string | undefined;

let chronoModule: typeof Chrono | undefined;

/**
 * chrono-node (~47 KB minified) only words a rejection, so the first rejection loads it: a file
 * beside the parser when deployed (chrono.cjs), so that reading a valid schedule never parses
 * it. `require`, not `import()`, keeps the parser synchronous.
 */
const chrono = (): typeof Chrono =>
  (chronoModule ??= createRequire(import.meta.url)(typeof KNAP_CHRONO_CHUNK === 'string' ? KNAP_CHRONO_CHUNK : 'chrono-node'));

const DATE_COMPONENTS: Component[] = ['day', 'month', 'year', 'weekday'];

function isFiller(t: Token): boolean {
  return t.kind === 'dash' || (t.kind === 'word' && FILLER_WORDS.has(t.lower));
}

/** Runs of consecutive unclaimed tokens that contain at least one word that is not filler. */
function unknownRuns(tokens: readonly Token[]): Token[][] {
  const runs: Token[][] = [];
  let run: Token[] = [];
  for (const t of [...tokens, null]) {
    if (t && !t.used) {
      run.push(t);
      continue;
    }
    // Trailing filler says nothing about what went wrong: "twice a (week)" is quoted as "twice".
    while (run.length > 0 && isFiller(run[run.length - 1] as Token)) run.pop();
    if (run.length > 0) runs.push(run);
    run = [];
  }
  return runs;
}

/**
 * chrono-node knows one-off dates ("tomorrow", "next Tuesday", "March 3 2027"): when one covers
 * the words we could not place, say so instead of a bare "not understood".
 */
function oneOffDate(description: string, runs: Token[][], now: Date): string | null {
  try {
    for (const result of chrono().parse(description, now)) {
      const start = result.index;
      const end = start + result.text.length;
      const known = DATE_COMPONENTS.some((c) => result.start.isCertain(c));
      const overlaps = runs.some((run) => run.some((t) => !isFiller(t) && t.start < end && t.end > start));
      if (known && overlaps) return result.text;
    }
  } catch {
    // A chrono failure only costs the nicer message.
  }
  return null;
}

/** Throws a ScheduleError quoting every part of the description no rule claimed. */
export function rejectLeftovers(tokens: readonly Token[], description: string, now: Date): void {
  const runs = unknownRuns(tokens);
  if (runs.length === 0) return;
  const quoted = runs.map((run) => quote(spanText(description, run))).join(' and ');
  const message = `Could not understand ${quoted} in the schedule description`;
  const oneOff = oneOffDate(description, runs, now);
  if (!oneOff) throw new ScheduleError(message);
  const hint = 'this describes one date; say "every ..." for a recurrence (e.g. "every Monday at 9am")';
  throw new ScheduleError(`${message}: one-off dates such as ${quote(oneOff)} are not supported, ${hint}`);
}
