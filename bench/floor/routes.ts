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
