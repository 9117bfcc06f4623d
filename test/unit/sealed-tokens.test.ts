import { hashCredential } from '../../shared/domain/credentials.js';
import {
  grantIdOf,
  seal,
  staticKeyring,
  tokenKey,
  unseal,
  VERIFIED_TOKENS_KEPT,
  verifiedTokenCount,
} from '../../shared/domain/sealed-tokens.js';
import { MAX_TOKEN_LENGTH, readToken } from '../../shared/domain/tokens.js';
import {
  cachedSecretKeyring,
  KEY_CACHE_MS,
  keyringFromEnv,
  keysFromSecret,
  UNKNOWN_KEY_RETRY_MS,
} from '../../shared/keys/token-keyring.js';
import { oneCharacterAway, TOKEN_ALPHABET } from '../support/token-variants.js';

const KEY = Buffer.from('unit-test-token-key-0123456789abcdef-0123', 'utf8');
const keyring = staticKeyring([KEY]);
const claims = {
  kind: 'access' as const,
  clientId: 'knap_ci_0123456789abcdef0123456789abcdef',
  generation: 7,
  scope: 'knaps:read knaps:write',
  issuedAt: 1_800_000_000,
  expiresAt: 1_800_003_600,
  grantId: grantIdOf('knap_rt_some-refresh-token'),
};

describe('seal and unseal', () => {
  test('round-trips every claim, with a fresh token id each time', async () => {
    const first = seal(claims, tokenKey(KEY));
    const second = seal(claims, tokenKey(KEY));
    expect(first.body).not.toBe(second.body);
    expect(await unseal(first.body, keyring)).toEqual({ ...claims, tokenId: first.tokenId, grantKey: null, version: 2 });
    // A refresh token's grant is its own: the hash of the token, known once sealed.
    const refresh = seal({ ...claims, kind: 'refresh', grantId: null }, tokenKey(KEY));
    expect(refresh.grantId).toBe(grantIdOf(`knap_rt_${refresh.body}`));
    expect(refresh.grantKey).toBe(hashCredential(`knap_rt_${refresh.body}`));
    expect(await unseal(refresh.body, keyring)).toEqual({
      ...claims,
      kind: 'refresh',
      grantId: refresh.grantId,
      grantKey: refresh.grantKey,
      tokenId: refresh.tokenId,
      version: 2,
    });
  });

  test('any changed byte, a truncation or an extension is refused', async () => {
    const { body } = seal(claims, tokenKey(KEY));
    const bytes = Buffer.from(body, 'base64url');
    for (let index = 0; index < bytes.length; index += 1) {
      const changed = Buffer.from(bytes);
      changed[index] = (changed[index] as number) ^ 0x01;
      expect(await unseal(changed.toString('base64url'), keyring)).toBeNull();
    }
    expect(await unseal(bytes.subarray(0, bytes.length - 1).toString('base64url'), keyring)).toBeNull();
    expect(await unseal(Buffer.concat([bytes, Buffer.of(0)]).toString('base64url'), keyring)).toBeNull();
    expect(await unseal(`${body}!`, keyring)).toBeNull();
    expect(await unseal('', keyring)).toBeNull();
  });

  test('a key shorter than 32 bytes is refused', () => {
    expect(() => tokenKey(Buffer.alloc(31))).toThrow(/at least 32 bytes/);
  });

  test('the longest token that can be sealed (255-byte client id and scope) is still read', async () => {
    const longest = { ...claims, clientId: 'c'.repeat(255), scope: 's'.repeat(255) };
    const { body, tokenId } = seal(longest, tokenKey(KEY));
    expect(`knap_at_${body}`.length).toBe(MAX_TOKEN_LENGTH);
    expect(await readToken(`knap_at_${body}`, 'access', keyring)).toEqual({
      format: 'sealed',
      claims: { ...longest, tokenId, grantKey: null, version: 2 },
    });
    expect((await readToken(`knap_at_${body}A`, 'access', keyring)).format).toBe('invalid');
  });

  test('claims that do not fit are refused rather than cut', () => {
    expect(() => seal({ ...claims, scope: 'x'.repeat(256) }, tokenKey(KEY))).toThrow(/scope/);
    expect(() => seal({ ...claims, generation: -1 }, tokenKey(KEY))).toThrow(/generation/);
  });
});

describe('keyrings', () => {
  const NEXT = 'the-next-key-0123456789abcdef-0123456789';
  const PREVIOUS = 'the-previous-key-0123456789abcdef-012345';

  test('a secret of {"current","previous"}: current signs, both verify; a plain string is one key', () => {
    const keys = keysFromSecret(JSON.stringify({ current: NEXT, previous: PREVIOUS }));
    expect(keys.map((key) => key.secret.toString())).toEqual([NEXT, PREVIOUS]);
    expect(keysFromSecret(NEXT).map((key) => key.secret.toString())).toEqual([NEXT]);
    expect(() => keysFromSecret('{"previous":"x"}')).toThrow(/current/);
    expect(() => keysFromSecret('short')).toThrow(/at least 32/);
  });

  test('the secret is read once per KEY_CACHE_MS, a failed read is not kept, and an unknown key id reads again at most every 30 s', async () => {
    let now = 0;
    let value = JSON.stringify({ current: PREVIOUS });
    let reads = 0;
    let fail = false;
    const ring = cachedSecretKeyring(
      async () => {
        reads += 1;
        if (fail) throw new Error('Secrets Manager is down');
        return value;
      },
      () => now,
    );
    const [first] = await Promise.all([ring.signingKey(), ring.signingKey()]);
    expect(reads).toBe(1);
    expect(first?.secret.toString()).toBe(PREVIOUS);

    value = JSON.stringify({ current: NEXT, previous: PREVIOUS });
    const nextId = tokenKey(Buffer.from(NEXT)).id;
    expect(await ring.verifyingKey(nextId)).toBeNull(); // within 30 s of the read: no read
    expect(reads).toBe(1);
    now += UNKNOWN_KEY_RETRY_MS;
    expect((await ring.verifyingKey(nextId))?.id).toBe(nextId);
    expect(reads).toBe(2);

    now += KEY_CACHE_MS;
    fail = true;
    await expect(ring.signingKey()).rejects.toThrow(/down/);
    fail = false;
    expect((await ring.signingKey()).secret.toString()).toBe(NEXT);
    expect(reads).toBe(4);
  });

  test('from the environment: TOKEN_SIGNING_KEYS, else a clear error on first use', async () => {
    const ring = keyringFromEnv({ TOKEN_SIGNING_KEYS: `${NEXT},${PREVIOUS}` });
    expect((await ring.signingKey()).secret.toString()).toBe(NEXT);
    expect(await ring.verifyingKey(tokenKey(Buffer.from(PREVIOUS)).id)).not.toBeNull();
    await expect(keyringFromEnv({}).signingKey()).rejects.toThrow(/TOKEN_SIGNING_KEYS .* TOKEN_KEYS_SECRET_ARN/);
  });
});

describe('one exact spelling', () => {
  test.each(['access', 'refresh'] as const)(
    'no %s token one character away from a genuine one is read, as either kind',
    async (kind) => {
      const sealed = seal({ ...claims, kind, grantId: kind === 'access' ? claims.grantId : null }, tokenKey(KEY));
      const genuine = (kind === 'access' ? 'knap_at_' : 'knap_rt_') + sealed.body;
      expect((await readToken(genuine, kind, keyring)).format).toBe('sealed');
      let variants = 0;
      const accepted: string[] = [];
      for (const variant of oneCharacterAway(genuine)) {
        variants += 1;
        for (const asKind of ['access', 'refresh'] as const) {
          if ((await readToken(variant, asKind, keyring, true)).format === 'sealed') accepted.push(variant);
        }
      }
      expect(accepted).toEqual([]);
      // insertions + deletions + substitutions: (n + 1) * 69 + n + n * 68
      expect(variants).toBe((genuine.length + 1) * TOKEN_ALPHABET.length + genuine.length * TOKEN_ALPHABET.length);
    },
  );

  test('spare bits in the last character do not make a second spelling', async () => {
    // 127 bytes: the last of 170 characters carries 2 bits of data and 4 spare ones.
    const { body } = seal({ ...claims, clientId: `${claims.clientId}x` }, tokenKey(KEY));
    expect(Buffer.from(body, 'base64url').length % 3).toBe(1);
    const last = body.at(-1) as string;
    const others = TOKEN_ALPHABET.slice(0, 64)
      .split('')
      .filter((character) => character !== last)
      .map((character) => body.slice(0, -1) + character)
      .filter((variant) => Buffer.from(variant, 'base64url').equals(Buffer.from(body, 'base64url')));
    expect(others.length).toBeGreaterThan(0); // such spellings exist, and decode to the same bytes
    for (const variant of others) expect(await unseal(variant, keyring)).toBeNull();
    for (const extended of ['A', '_', 'AA']) expect(await unseal(body + extended, keyring)).toBeNull();
  });

  test('tokens sealed by earlier versions (version 1) are still read, with the same ids', async () => {
    const refresh = seal({ ...claims, kind: 'refresh', grantId: null }, tokenKey(KEY), 1);
    const read = await unseal(refresh.body, keyring);
    expect(read).toEqual(expect.objectContaining({ version: 1, grantId: grantIdOf(`knap_rt_${refresh.body}`) }));
    const access = seal({ ...claims, grantId: refresh.grantId }, tokenKey(KEY), 1);
    expect(await unseal(access.body, keyring)).toEqual(expect.objectContaining({ version: 1, grantId: refresh.grantId }));
    expect(await unseal(seal(claims, tokenKey(KEY), 3).body, keyring)).toBeNull();
  });
});

describe('tokens already checked', () => {
  const NEXT = 'the-next-key-0123456789abcdef-0123456789';
  const PREVIOUS = 'the-previous-key-0123456789abcdef-012345';

  test('are kept by their exact spelling only: every variant of a kept token is still checked in full and refused', async () => {
    const { body } = seal(claims, tokenKey(KEY));
    const first = await unseal(body, keyring);
    expect(first).not.toBeNull();
    expect(Object.isFrozen(first)).toBe(true);
    const accepted: string[] = [];
    for (const variant of oneCharacterAway(body)) if ((await unseal(variant, keyring)) !== null) accepted.push(variant);
    expect(accepted).toEqual([]);
    // The kept answer is the same claims, and nothing can change them for the next request.
    const again = await unseal(body, keyring);
    expect(again).toBe(first);
    expect(() => {
      (again as { clientId: string }).clientId = 'someone-else';
    }).toThrow(TypeError);
    expect((await unseal(body, keyring))?.clientId).toBe(claims.clientId);
  });

  test('count only under the key they were checked with: a retired key, or a ring without it, refuses them', async () => {
    let now = 0;
    let value = JSON.stringify({ current: NEXT, previous: PREVIOUS });
    const ring = cachedSecretKeyring(
      async () => value,
      () => now,
    );
    const { body } = seal(claims, tokenKey(Buffer.from(PREVIOUS)));
    expect((await unseal(body, ring))?.clientId).toBe(claims.clientId);
    expect((await unseal(body, ring))?.clientId).toBe(claims.clientId);
    // Another ring, without that key, refuses the token another ring has kept.
    expect(await unseal(body, staticKeyring([Buffer.from(NEXT)]))).toBeNull();
    // Retired: once the ring reads its secret again, the kept token is refused.
    value = JSON.stringify({ current: NEXT });
    now += KEY_CACHE_MS;
    expect(await unseal(body, ring)).toBeNull();
    expect(await unseal(body, ring)).toBeNull();
    // A ring with the same key again checks the MAC afresh, and it still holds.
    expect((await unseal(body, staticKeyring([Buffer.from(PREVIOUS)])))?.clientId).toBe(claims.clientId);
  });

  test(`are at most ${VERIFIED_TOKENS_KEPT}, the oldest going first, and one that went is checked in full again`, async () => {
    const bodies = Array.from({ length: VERIFIED_TOKENS_KEPT + 50 }, () => seal(claims, tokenKey(KEY)).body);
    for (const body of bodies) expect(await unseal(body, keyring)).not.toBeNull();
    expect(verifiedTokenCount()).toBe(VERIFIED_TOKENS_KEPT);
    expect((await unseal(bodies[0] as string, keyring))?.tokenId).toBe(
      Buffer.from(bodies[0] as string, 'base64url')
        .subarray(18, 34)
        .toString('base64url'),
    );
    expect(verifiedTokenCount()).toBe(VERIFIED_TOKENS_KEPT);
  });
});
