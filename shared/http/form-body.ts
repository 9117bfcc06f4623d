import { ApiError } from '../errors.js';
import { bodyText, mediaTypeOf, requireUtf8Charset } from './body-text.js';
import type { RequestStep } from './types.js';

const malformed = () => new ApiError(400, 'Request body is not a valid application/x-www-form-urlencoded form');

/** Percent-decoding that refuses invalid UTF-8 instead of turning it into U+FFFD. */
const decode = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw malformed();
  }
};

/** Fields in order; a repeated field becomes an array, which the form schema then refuses. */
export const parseForm = (text: string): Record<string, string | string[]> => {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? '' : decode(pair.slice(equals + 1));
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return { ...fields };
};

/**
 * Parses an application/x-www-form-urlencoded body in place (the OAuth endpoints). OAuth
 * answers a malformed token request with 400 (RFC 6749 section 5.2); a charset other than
 * UTF-8 is a 415, as on the JSON routes.
 */
export const formBody: RequestStep = (request) => {
  const mediaType = mediaTypeOf(request.event.headers?.['content-type']);
  if (mediaType?.type !== 'application/x-www-form-urlencoded') {
    throw new ApiError(400, 'Content-Type must be application/x-www-form-urlencoded');
  }
  requireUtf8Charset(mediaType);
  request.event.body = parseForm(bodyText(request.event) ?? '') as unknown as string;
};
