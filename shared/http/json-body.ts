import { parseJson } from '../domain/storable-json.js';
import { ApiError } from '../errors.js';
import { bodyText, mediaTypeOf, requireUtf8Charset } from './body-text.js';
import type { RequestStep } from './types.js';

/** application/json and its structured-syntax relatives (application/merge-patch+json). */
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;

/**
 * Parses a JSON body in place. A missing Content-Type is taken as JSON (a JSON API may be
 * forgiving about that), a wrong one or a charset other than UTF-8 is a 415. Numbers keep
 * their digits (see parseJson).
 */
export const jsonBody: RequestStep = (request) => {
  const mediaType = mediaTypeOf(request.event.headers?.['content-type']);
  if (mediaType && !JSON_TYPE.test(mediaType.type)) throw new ApiError(415, 'Content-Type must be application/json');
  requireUtf8Charset(mediaType);
  const text = bodyText(request.event);
  try {
    request.event.body = parseJson(text ?? '') as string;
  } catch {
    // Malformed JSON, duplicate keys, or nesting deep enough to exhaust the stack: all the caller's.
    throw new ApiError(400, 'Request body is not valid JSON');
  }
};
