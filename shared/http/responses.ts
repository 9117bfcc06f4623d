import { toJson } from '../domain/storable-json.js';
import type { HttpResult } from './types.js';

export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  // toJson writes lossless numbers (tool_metadata's big integers) with their digits.
  body: toJson(body),
});

export const problem = (statusCode: number, detail: string, headers: Record<string, string> = {}): HttpResult =>
  json(statusCode, { detail }, headers);
