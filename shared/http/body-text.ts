import { ApiError } from '../errors.js';
import type { HttpEvent } from './types.js';

/** A Content-Type split into its media type and charset, both lower case. */
export interface MediaType {
  type: string;
  charset: string | undefined;
}

export const mediaTypeOf = (contentType: string | undefined): MediaType | undefined => {
  if (!contentType) return undefined;
  const [type = '', ...parameters] = contentType.split(';');
  const charset = parameters
    .map((parameter) => /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(parameter)?.[1])
    .find((value) => value !== undefined);
  return { type: type.trim().toLowerCase(), charset: charset?.toLowerCase() };
};

/** Bodies are read as UTF-8 only: anything else would be stored as replacement characters. */
export const requireUtf8Charset = (mediaType: MediaType | undefined): void => {
  const charset = mediaType?.charset;
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(415, `Unsupported charset '${charset}': send the body as UTF-8 (charset=utf-8)`);
  }
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The body as text. API Gateway hands over non-text bodies base64-encoded; those bytes must
 * be valid UTF-8, so a client never finds U+FFFD stored where it sent something else.
 */
export const bodyText = (event: HttpEvent): string | undefined => {
  const { body, isBase64Encoded } = event;
  if (body === undefined || body === null) return undefined;
  if (!isBase64Encoded) return body;
  try {
    return strictUtf8.decode(Buffer.from(body, 'base64'));
  } catch {
    throw new ApiError(400, 'Request body is not valid UTF-8');
  }
};
