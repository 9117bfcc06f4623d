import { areaFunction } from '../area.js';
import * as console from '../console/handler.js';
import * as docs from '../docs/handler.js';
import * as docsAsset from '../docs-asset/handler.js';
import * as openapi from '../openapi/handler.js';

/** The public pages: the console, the OpenAPI document, the API reference and its assets: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('pages', {
  console: console,
  openapi: openapi,
  docs: docs,
  'docs-asset': docsAsset,
});
