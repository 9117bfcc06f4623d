import { areaFunction } from '../area.js';

/** The public pages: the console, the OpenAPI document, the API reference and its assets: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('pages', {
  console: () => import('./console.js'),
  openapi: () => import('./openapi.js'),
  docs: () => import('./docs.js'),
  'docs-asset': () => import('./docs-asset.js'),
});
