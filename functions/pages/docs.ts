import { createHash } from 'node:crypto';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { publicDeps } from '../../shared/public-deps.js';
import type { Deps } from '../../shared/runtime.js';

/** The page's one inline script and one inline style, each allowed by its hash in the policy below. */
const SCRIPT = `
    window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: false });
  `;
const STYLE = 'body { margin: 0; } .swagger-ui .topbar { display: none; }';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page shares the console's origin, whose admins hold tokens in memory: it runs only its
 * own scripts (swagger-ui's bundle from this origin, the inline start by its hash), fetches only
 * this origin (the OpenAPI document), shows images of this origin or inline (swagger-ui's icons
 * are data: URIs in its CSS), and is never framed. Swagger UI sets styles through the DOM's
 * style properties, which a style-src without 'unsafe-inline' still allows.
 */
export const DOCS_POLICY = [
  "default-src 'none'",
  `script-src 'self' ${sha256(SCRIPT)}`,
  `style-src 'self' ${sha256(STYLE)}`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Swagger UI, from the swagger-ui-dist package served beside this page: no CDN, works offline. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Knap API reference</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
  <style>${STYLE}</style>
</head>
<body>
  <div id="reference"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script>${SCRIPT}</script>
</body>
</html>
`;

/** GET /api/docs: public, not metered. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(functionDeps, { body: 'none', auth: 'none', maxBodyBytes: MAX_IGNORED_BODY_BYTES }, async () => ({
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'Content-Security-Policy': DOCS_POLICY,
      'X-Content-Type-Options': 'nosniff',
    },
    body: PAGE,
  }));

export const handler = createHandler(publicDeps());
