import { CONSOLE_FILES, consoleFile, consolePage, consolePolicy, consoleSettingsFromEnv } from '../../shared/console-files.js';
import { ApiError } from '../../shared/errors.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { publicDeps } from '../../shared/public-deps.js';
import type { Deps } from '../../shared/runtime.js';

/**
 * The console's script and style sheet, `?asset=app.js|app.css`: on the page's own route, so the
 * console is one function (each function costs the stack a dozen resources). The page names
 * them with their content hash (`&v=`), so a browser may keep them a year.
 */
const asset = (event: HttpEvent, file: string): HttpResult => {
  const contentType = Object.hasOwn(CONSOLE_FILES, file) ? CONSOLE_FILES[file] : undefined;
  const found = contentType ? consoleFile(file) : null;
  if (!contentType || found === null) throw new ApiError(404, `No such file: ${file}`);
  return {
    statusCode: 200,
    headers: {
      'Content-Type': contentType,
      'Cache-Control': event.queryStringParameters?.v === found.version ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    },
    body: found.text,
  };
};

/** GET /console: the admin console, a page that signs in with the admin issuer and calls /api/admin. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(functionDeps, { body: 'none', auth: 'none', maxBodyBytes: MAX_IGNORED_BODY_BYTES }, async ({ event }) => {
    const file = event.queryStringParameters?.asset;
    if (file !== undefined) return asset(event, file);
    const settings = consoleSettingsFromEnv();
    const page = consolePage(settings);
    if (page === null) throw new ApiError(503, 'The console was not built: run npm run build:console');
    return {
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Content-Security-Policy': consolePolicy(settings),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'X-Frame-Options': 'DENY',
      },
      body: page,
    };
  });

export const handler = createHandler(publicDeps());
