/**
 * private_key_jwt (RFC 7523 section 2.2, OpenID Connect Core section 9): the public keys a
 * client registers, and what its assertions must say. Keys are checked here by shape (public
 * members only, the sizes and curves allowed); jose imports and verifies them.
 */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const ASSERTION_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export const MAX_CLIENT_KEYS = 5;
/** An assertion lives at most this long (seconds from now to its exp). */
export const MAX_ASSERTION_LIFETIME = 300;
export const ASSERTION_LEEWAY = 30;
const MIN_RSA_BITS = 2048;
/** Members that only a private or symmetric key has (RFC 7518 section 6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type PublicJwk = Record<string, string>;

const text = (jwk: Record<string, unknown>, name: string, index: number): string => {
  const value = jwk[name];
  if (typeof value !== 'string' || value === '' || value.length > 2048) {
    throw new Error(`keys[${index}].${name} must be a string`);
  }
  return value;
};

const b64 = (jwk: Record<string, unknown>, name: string, index: number): string => {
  const value = text(jwk, name, index);
  if (!BASE64URL.test(value)) throw new Error(`keys[${index}].${name} must be base64url`);
  return value;
};

const bytesOf = (value: string): number => Buffer.from(value, 'base64url').length;

/** One public key, reduced to its public members (and kid, alg, use when given); throws a message for a 400. */
const publicKey = (raw: unknown, index: number): PublicJwk => {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`keys[${index}] must be a JSON object`);
  const jwk = raw as Record<string, unknown>;
  const secretMember = PRIVATE_MEMBERS.find((name) => name in jwk);
  if (secretMember) {
    throw new Error(`keys[${index}] has the private member "${secretMember}": register public keys only, never the private key`);
  }
  const kty = text(jwk, 'kty', index);
  const key: PublicJwk = { kty };
  if (kty === 'RSA') {
    key.n = b64(jwk, 'n', index);
    key.e = b64(jwk, 'e', index);
    const modulus = Buffer.from(key.n, 'base64url');
    const bits = modulus.length * 8 - Math.clz32(modulus[0] ?? 0) + 24;
    if (bits < MIN_RSA_BITS) throw new Error(`keys[${index}] is an RSA key of ${bits} bits: at least ${MIN_RSA_BITS} are needed`);
  } else if (kty === 'EC') {
    if (jwk.crv !== 'P-256') throw new Error(`keys[${index}]: EC keys must be on P-256`);
    key.crv = 'P-256';
    key.x = b64(jwk, 'x', index);
    key.y = b64(jwk, 'y', index);
    if (bytesOf(key.x) !== 32 || bytesOf(key.y) !== 32) throw new Error(`keys[${index}] is not a P-256 point`);
  } else if (kty === 'OKP') {
    if (jwk.crv !== 'Ed25519') throw new Error(`keys[${index}]: OKP keys must be Ed25519`);
    key.crv = 'Ed25519';
    key.x = b64(jwk, 'x', index);
    if (bytesOf(key.x) !== 32) throw new Error(`keys[${index}] is not an Ed25519 public key`);
  } else {
    throw new Error(`keys[${index}].kty must be RSA, EC (P-256) or OKP (Ed25519)`);
  }
  if (jwk.kid !== undefined) key.kid = text(jwk, 'kid', index);
  if (jwk.use !== undefined && jwk.use !== 'sig') throw new Error(`keys[${index}].use must be "sig"`);
  if (jwk.use !== undefined) key.use = 'sig';
  if (jwk.alg !== undefined) {
    const alg = text(jwk, 'alg', index);
    const fits = kty === 'RSA' ? ['RS256', 'PS256'] : kty === 'EC' ? ['ES256'] : ['EdDSA', 'Ed25519'];
    if (!fits.includes(alg)) throw new Error(`keys[${index}].alg must be one of ${fits.join(', ')}`);
    key.alg = alg;
  }
  return key;
};

/** A client's key set as registered: `{"keys": [...]}`, public keys only, at most MAX_CLIENT_KEYS. */
export const parseClientJwks = (body: unknown): PublicJwk[] => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('Request body must be a JSON object');
  const unknown = Object.keys(body).find((name) => name !== 'keys');
  if (unknown) throw new Error(`Unknown field: ${unknown}; send only keys`);
  const { keys } = body as { keys?: unknown };
  if (!Array.isArray(keys)) throw new Error('keys must be an array of public JWKs');
  if (keys.length > MAX_CLIENT_KEYS) throw new Error(`At most ${MAX_CLIENT_KEYS} keys per client`);
  const parsed = keys.map(publicKey);
  const kids = parsed.map((key) => key.kid).filter((kid) => kid !== undefined);
  if (new Set(kids).size !== kids.length) throw new Error('Each kid must be different');
  return parsed;
};
