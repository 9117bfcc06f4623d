/**
 * Each route's calls. `shape` says what the project does, in its words; the bench prints it.
 * Depth counts the calls made one after another; calls in one step go side by side.
 * Its own module: importing bench/floor/server.ts starts the floor's servers.
 */
export const FLOOR_ROUTES = {
  create: 'meter | standing, then PutItem (conditional)',
  list: 'meter | standing, then Query gsi1 | Query gsi2',
  get: 'meter | standing | GetItem',
  patch: 'meter | standing | GetItem, then PutItem (conditional)',
  preview: 'meter | standing',
} as const;
export type FloorRoute = keyof typeof FLOOR_ROUTES;

/**
 * The bodies the route bench, its profile and the in-process bench send, so that all three
 * measure the same requests: a private manual Knap (created, and what the reads find), a PATCH
 * of its name, a schedule preview.
 */
export const ROUTE_BODIES = {
  knap: JSON.stringify({
    name: 'Bench',
    schedule_type: 'manual',
    tool_metadata: { action_description: 'Summarize my inbox and post the digest to the team channel' },
  }),
  patch: JSON.stringify({ name: 'Bench, patched' }),
  preview: JSON.stringify({ schedule_description: 'every weekday at 9am', timezone: 'Europe/Berlin', count: 5 }),
} as const;
