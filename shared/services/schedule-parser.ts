import type * as Schedules from '../schedules/index.js';

/** Set by esbuild in deployed bundles (lib/knap-function.ts): the schedule parser's file, beside the bundle. */
declare const KNAP_SCHEDULES_CHUNK: string | undefined;

/**
 * The schedule parser (our phrase families, ~55 KB minified) is imported by the first
 * request that schedules a Knap or previews a schedule: a manual Knap, a PATCH that leaves the
 * schedule alone, or any other route of the Knaps' function, never needs it. Deployed, it is a
 * file beside the bundle (schedules.mjs), so the functions that create and update Knaps do not
 * parse it at every cold start.
 */
// The choice stays here, not in a helper: esbuild drops the source import only where the constant is set.
export const scheduleParser = async (): Promise<typeof Schedules> =>
  typeof KNAP_SCHEDULES_CHUNK === 'string'
    ? await import(new URL(KNAP_SCHEDULES_CHUNK, import.meta.url).href)
    : await import('../schedules/index.js');
