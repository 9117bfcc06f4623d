import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../../shared/errors.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { publicDeps } from '../../shared/public-deps.js';
import type { Deps } from '../../shared/runtime.js';

/** The files the reference page loads, and nothing else: the name is never a path. */
const CONTENT_TYPES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

/** Deployed, the files sit beside the bundle (copied at synth); locally they are read from the package. */
const locate = (file: string): string => {
  const beside = fileURLToPath(new URL(`./${file}`, import.meta.url));
  return existsSync(beside) ? beside : createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`);
};

const cache = new Map<string, string>();
const read = (file: string): string => {
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(locate(file), 'utf8');
    cache.set(file, text);
  }
  return text;
};

/** GET /api/docs/assets/{file}: public, not metered, cached by browsers for a day. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(functionDeps, { body: 'none', auth: 'none', maxBodyBytes: MAX_IGNORED_BODY_BYTES }, async ({ event }) => {
    const file = event.pathParameters?.file ?? '';
    const contentType = Object.hasOwn(CONTENT_TYPES, file) ? CONTENT_TYPES[file] : undefined;
    if (!contentType) throw new ApiError(404, `No such file: ${file}`);
    return {
      statusCode: 200,
      headers: { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=86400' },
      body: read(file),
    };
  });

export const handler = createHandler(publicDeps());
