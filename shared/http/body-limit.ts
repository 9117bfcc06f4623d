import { ApiError } from '../errors.js';
import type { RequestStep } from './types.js';

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** The OAuth endpoints' forms: a few short fields. */
export const MAX_FORM_BODY_BYTES = 16 * 1024;

/** Routes that read no body (GET, DELETE, a manual run) refuse a large one rather than read it. */
export const MAX_IGNORED_BODY_BYTES = 64 * 1024;

/** Refuses an oversized body before anything parses it. */
export const bodyLimit =
  (maxBytes: number): RequestStep =>
  (request) => {
    const { body, isBase64Encoded } = request.event;
    if (body === undefined || body === null) return;
    const bytes = isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
    if (bytes > maxBytes) {
      throw new ApiError(413, `Request body is ${bytes} bytes; the limit is ${maxBytes} bytes`);
    }
  };
