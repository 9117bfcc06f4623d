import { toJson } from '../domain/storable-json.js';
import type { HttpEvent, HttpResult } from './types.js';

export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: toJson(body),
});

export const problem = (statusCode: number, detail: string, headers: Record<string, string> = {}): HttpResult =>
  json(statusCode, { detail }, headers);

/**
 * The scheme a proxy says the request came in on: the first of a list ("https,http"), and
 * only http or https, since the caller writes this header and the OAuth metadata's issuer
 * is built from it (never `javascript://`).
 */
const forwardedScheme = (header: string | undefined): string | undefined => {
  const first = header?.split(',')[0]?.trim().toLowerCase();
  return first === 'http' || first === 'https' ? first : undefined;
};

/** The base URL a request came in on: the API's own address as its caller sees it. */
export const baseUrlOf = (event: HttpEvent): string => {
  const configured = process.env.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/$/, '');
  const scheme =
    forwardedScheme(event.headers?.['x-forwarded-proto']) ??
    (event.requestContext.domainName.endsWith('.amazonaws.com') ? 'https' : 'http');
  return `${scheme}://${event.requestContext.domainName}`;
};

/** 204: done, nothing to say. */
export const noContent = (): HttpResult => ({ statusCode: 204, headers: {}, body: '' });
