/**
 * Lambda bundles only: stands in for `@stablelib/base64` (esbuild alias in
 * scripts/lambda-bundle.mjs), which `standardwebhooks` reads secrets and writes signatures with:
 * 3.5 KB parsed at every cold start of the deliverer, for what Buffer does. Standard alphabet
 * with padding, and, like the package, a refusal of text that is not base64 (Buffer alone
 * would skip the characters it does not know). test/unit/lambda-stand-ins.test.ts holds it to
 * the package.
 */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const encode = (data: Uint8Array): string => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');

export const decode = (text: string): Uint8Array => {
  if (!BASE64.test(text)) throw new SyntaxError('Base64Coder: incorrect characters for decoding');
  return new Uint8Array(Buffer.from(text, 'base64'));
};
