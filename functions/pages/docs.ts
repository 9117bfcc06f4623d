import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { publicDeps } from '../../shared/public-deps.js';
import type { Deps } from '../../shared/runtime.js';

/** Swagger UI, from the swagger-ui-dist package served beside this page: no CDN, works offline. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Knap API reference</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="reference"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: false });
  </script>
</body>
</html>
`;

/** GET /api/docs: public, not metered. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(functionDeps, { body: 'none', auth: 'none', maxBodyBytes: MAX_IGNORED_BODY_BYTES }, async () => ({
    statusCode: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
    body: PAGE,
  }));

export const handler = createHandler(publicDeps());
