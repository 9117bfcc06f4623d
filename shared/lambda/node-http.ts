/**
 * Lambda bundles only: `node:http` as its CommonJS module object (esbuild alias, BUNDLE_ALIASES
 * in scripts/lambda-bundle.mjs). On Node 22, which Lambda runs, importing `node:http` as ESM
 * builds its namespace by reading every export, and the lazy `WebSocket`, `CloseEvent` and
 * `MessageEvent` getters load undici: ~20 ms at import, for nothing that sends a webhook or a
 * trace (scripts/measure-bundles.ts --node). `getBuiltinModule` reads no getter it is not asked
 * for. The module is whole: the default export and the functions and classes named.
 */
const http = process.getBuiltinModule('node:http');

export default http;
export const {
  Agent,
  ClientRequest,
  IncomingMessage,
  METHODS,
  OutgoingMessage,
  STATUS_CODES,
  Server,
  ServerResponse,
  createServer,
  get,
  request,
  validateHeaderName,
  validateHeaderValue,
} = http;
