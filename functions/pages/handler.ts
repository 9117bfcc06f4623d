import { areaFunction } from '../area.js';
import * as console from './console.js';
import * as docs from './docs.js';
import * as docsAsset from './docs-asset.js';
import * as openapi from './openapi.js';

/** The public pages: the console, the OpenAPI document, the API reference and its assets: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('pages', {
  console: console,
  openapi: openapi,
  docs: docs,
  'docs-asset': docsAsset,
});
