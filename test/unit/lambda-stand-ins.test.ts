import { createRequire } from 'node:module';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import * as base64 from '../../shared/lambda/node-base64.js';
import * as sha256 from '../../shared/lambda/node-sha256.js';

/**
 * The Lambda bundles sign webhooks with stand-ins for standardwebhooks' HMAC and base64
 * (scripts/lambda-bundle.mjs, BUNDLE_ALIASES): they must give the packages' answers, byte for
 * byte, and refuse what the packages refuse.
 */
const require = createRequire(import.meta.url);
const packageBase64 = require('@stablelib/base64') as typeof base64;
const packageSha256 = require('fast-sha256') as typeof sha256;

const RUNS = { numRuns: 300, seed: 41 };

test('hmac: the same bytes as fast-sha256 for any key and message', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 2000 }), (key, data) => {
      expect(sha256.hmac(key, data)).toEqual(packageSha256.hmac(key, data));
    }),
    RUNS,
  );
});

test('base64: the same text as @stablelib/base64 and back, for any bytes, also from inside a larger buffer', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(16), (bytes, offset) => {
      const inside = new Uint8Array(bytes.length + offset + 3);
      inside.set(bytes, offset);
      const view = inside.subarray(offset, offset + bytes.length);
      const text = base64.encode(view);
      expect(text).toBe(packageBase64.encode(bytes));
      expect(base64.decode(text)).toEqual(packageBase64.decode(text));
    }),
    RUNS,
  );
});

test.each(['ab!c', 'abc', 'YQ', 'YQ=', 'Y===', 'YQ==YQ==', ' YQ==', 'YQ-_', 'a'])(
  'base64: %j refused, as the package refuses it',
  (text) => {
    expect(() => packageBase64.decode(text)).toThrow();
    expect(() => base64.decode(text)).toThrow();
  },
);

test('the signature standardwebhooks makes is the one the stand-ins make', () => {
  const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
  const withPackages = new Webhook(secret);
  const at = new Date('2026-11-28T10:00:00Z');
  const payload = '{"type":"knap.run","data":{"n":1}}';
  const expected = withPackages.sign('msg_1', at, payload);
  const key = base64.decode(secret.slice('whsec_'.length));
  const signed = `v1,${base64.encode(sha256.hmac(key, new TextEncoder().encode(`msg_1.${at.getTime() / 1000}.${payload}`)))}`;
  expect(signed).toBe(expected);
});
