import type { Context } from 'aws-lambda';
import { lambdaContext } from '../../local/http-adapter.js';
import type { HttpEvent } from '../../shared/http/types.js';

/** An API Gateway HTTP API (payload 2.0) event, as AWS sends it, for direct handler calls. */
export const httpEvent = (
  routeKey: string,
  options: { headers?: Record<string, string>; body?: string; isBase64Encoded?: boolean; query?: Record<string, string> } = {},
): HttpEvent => {
  const [method = 'GET', path = '/'] = routeKey.split(' ');
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: options.headers ?? {},
    queryStringParameters: options.query,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'test' },
      requestId: 'request-id',
      routeKey,
      stage: '$default',
      time: '23/Nov/2026:10:00:00 +0000',
      timeEpoch: 1795428000000,
    },
    body: options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
};

export const context = (name = 'test'): Context => lambdaContext(name, 10_000);

/** A form POST (the OAuth endpoints), for direct handler calls. */
export const formEvent = (routeKey: string, fields: Record<string, string>): HttpEvent =>
  httpEvent(routeKey, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
