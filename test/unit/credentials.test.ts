import { digestsEqual, hashCredential, newClientId, newSecret, PREFIX } from '../../shared/domain/credentials.js';

describe('credentials', () => {
  test('secrets carry their prefix and 256 random bits', () => {
    const secret = newSecret(PREFIX.clientSecret);
    expect(secret).toMatch(/^knap_cs_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(PREFIX.clientSecret.length), 'base64url')).toHaveLength(32);
    expect(newSecret(PREFIX.clientSecret)).not.toBe(secret);
  });

  test('client ids are prefixed hex', () => {
    expect(newClientId()).toMatch(/^knap_ci_[0-9a-f]{32}$/);
  });

  test('hashes are SHA-256 hex and compare only when equal', () => {
    const hash = hashCredential('knap_cs_abc');
    // sha256("abc"), the FIPS 180-2 test vector, pins the algorithm and encoding.
    expect(hashCredential('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digestsEqual(hash, hashCredential('knap_cs_abc'))).toBe(true);
    expect(digestsEqual(hash, hashCredential('knap_cs_abd'))).toBe(false);
    expect(digestsEqual(hash, hash.slice(0, 62))).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });
});
