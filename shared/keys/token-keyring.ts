/**
 * Where the keys that seal tokens come from. Deployed: one Secrets Manager secret (JSON
 * `{"current": "...", "previous": "..."}`), read on first use and again every few minutes, so
 * a rotation reaches every container without a deploy. Locally and in tests:
 * TOKEN_SIGNING_KEYS, comma-separated, the first one signing.
 */
import {
  MIN_KEY_BYTES,
  staticKeyring,
  type TokenKey,
  type TokenKeyring,
  tokenKey,
  unavailableKeyring,
} from '../domain/sealed-tokens.js';

/** How long a container keeps the keys it read before reading them again. */
export const KEY_CACHE_MS = 5 * 60_000;
/** A token naming a key we do not hold makes us read the secret again, at most this often. */
export const UNKNOWN_KEY_RETRY_MS = 30_000;

const keyFromText = (text: string): TokenKey => {
  const secret = Buffer.from(text.trim(), 'utf8');
  if (secret.length < MIN_KEY_BYTES) throw new Error(`Token signing keys must be at least ${MIN_KEY_BYTES} characters`);
  return tokenKey(secret);
};

/** The keys of a secret's value: `current` signs; `previous` (being retired) still verifies. */
export const keysFromSecret = (value: string): TokenKey[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [keyFromText(value)];
  }
  const { current, previous } = (parsed ?? {}) as { current?: unknown; previous?: unknown };
  if (typeof current !== 'string') throw new Error('The token key secret has no "current" key');
  return [current, previous].filter((text): text is string => typeof text === 'string' && text !== '').map(keyFromText);
};

/**
 * A keyring over a secret read by `fetchSecret`, cached for KEY_CACHE_MS. Concurrent first
 * requests share one read; a failed read is not cached.
 */
export const cachedSecretKeyring = (fetchSecret: () => Promise<string>, now: () => number = Date.now): TokenKeyring => {
  let keys: Promise<TokenKey[]> | undefined;
  let readAt = 0;
  const read = (): Promise<TokenKey[]> => {
    readAt = now();
    keys = fetchSecret().then(keysFromSecret);
    keys.catch(() => {
      keys = undefined;
    });
    return keys;
  };
  const current = (): Promise<TokenKey[]> => (keys && now() - readAt < KEY_CACHE_MS ? keys : read());
  return {
    signingKey: async () => (await current())[0] as TokenKey,
    verifyingKey: async (id) => {
      const found = (await current()).find((key) => key.id === id);
      if (found || now() - readAt < UNKNOWN_KEY_RETRY_MS) return found ?? null;
      // Perhaps a key rotated in since our read: look once more.
      return (await read()).find((key) => key.id === id) ?? null;
    },
  };
};

/** The keyring the environment names. */
export const keyringFromEnv = (env: NodeJS.ProcessEnv = process.env): TokenKeyring => {
  if (env.TOKEN_SIGNING_KEYS) {
    return staticKeyring(env.TOKEN_SIGNING_KEYS.split(',').map((text) => keyFromText(text).secret));
  }
  const arn = env.TOKEN_KEYS_SECRET_ARN;
  if (arn) {
    // The SDK's Secrets Manager client, bounded (secrets-manager.ts), loads with the first read: a
    // container reads the secret once in KEY_CACHE_MS, and a cold start need not parse the client.
    return cachedSecretKeyring(async () => (await import('./secrets-manager.js')).readSecret(arn));
  }
  return unavailableKeyring('No token signing key: set TOKEN_SIGNING_KEYS (local) or TOKEN_KEYS_SECRET_ARN (deployed)');
};
