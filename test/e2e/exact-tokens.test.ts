/**
 * Tokens you can trust (contract): a token is accepted only in the exact form it was issued.
 * A few hundred tokens one character away from genuine ones, over HTTP, before and after the
 * genuine ones are revoked: refused at the bearer check and the refresh grant, inactive at
 * introspection, and revoking them leaves the genuine token as it was.
 */
import {
  bearer,
  getToken,
  listKnaps,
  refreshGrant,
  startTestApi,
  type TestApi,
  type TokenSet,
  tokenOperation,
} from '../support/api.js';
import { sampleOneCharacterAway } from '../support/token-variants.js';

let api: TestApi;
let client: { clientId: string; clientSecret: string };
beforeAll(async () => {
  api = await startTestApi();
  client = await api.newClient({ rateLimit: 100_000 });
});
afterAll(async () => {
  await api.close();
});

const oauth = (path: 'revoke' | 'introspect', token: string) => tokenOperation(api.url, path, client, token);

const introspection = async (token: string) => (await oauth('introspect', token)).json();

const refreshWith = (refreshToken: string) => refreshGrant(api.url, client, refreshToken);

/** What the API answers each variant with, collected so a failure names the variants at fault. */
const answers = async (variants: string[], ask: (variant: string) => Promise<unknown>) => {
  const seen = new Map<string, string[]>();
  for (const variant of variants) {
    const answer = JSON.stringify(await ask(variant));
    seen.set(answer, [...(seen.get(answer) ?? []), variant]);
  }
  return Object.fromEntries([...seen].map(([answer, which]) => [answer, which.length]));
};

/** A variant with `=` inside is not even token68 (RFC 6750): refused as malformed, which is as good. */
const REFUSED_BEARER = ['Invalid access token', "Authorization header must be 'Bearer <access token>'"];

const bearerAnswer = async (token: string) => {
  const response = await fetch(`${api.url}/api/studio/knap-tools`, { headers: bearer(token) });
  const { detail } = (await response.json()) as { detail: string };
  return [response.status, REFUSED_BEARER.includes(detail) ? 'refused' : detail];
};
const refreshAnswer = async (token: string) => {
  const response = await refreshWith(token);
  return [response.status, await response.json()];
};

const SAMPLE = 120;

describe.each([false, true])('one character away from a genuine token (genuine revoked: %s)', (revoked) => {
  let tokens: TokenSet;
  beforeAll(async () => {
    tokens = await getToken(api.url, client);
    if (revoked) {
      expect((await oauth('revoke', tokens.access_token)).status).toBe(200);
      expect((await oauth('revoke', tokens.refresh_token)).status).toBe(200);
    }
  });

  test('access token variants: 401 at the bearer check, inactive at introspection', async () => {
    const variants = sampleOneCharacterAway(tokens.access_token, SAMPLE);
    expect(variants.length).toBeGreaterThan(SAMPLE);
    expect(await answers(variants, bearerAnswer)).toEqual({
      [JSON.stringify([401, 'refused'])]: variants.length,
    });
    expect(await answers(variants, introspection)).toEqual({ [JSON.stringify({ active: false })]: variants.length });
  });

  test('refresh token variants: 401 at the refresh grant, inactive at introspection', async () => {
    const variants = sampleOneCharacterAway(tokens.refresh_token, SAMPLE);
    expect(await answers(variants, refreshAnswer)).toEqual({
      [JSON.stringify([401, { detail: 'Invalid refresh token' }])]: variants.length,
    });
    expect(await answers(variants, introspection)).toEqual({ [JSON.stringify({ active: false })]: variants.length });
  });

  test('revoking variants answers 200 and leaves the genuine tokens as they were', async () => {
    const variants = [...sampleOneCharacterAway(tokens.access_token, 20), ...sampleOneCharacterAway(tokens.refresh_token, 20)];
    for (const variant of variants) {
      const response = await oauth('revoke', variant);
      expect([response.status, await response.text()]).toEqual([200, '']);
    }
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(revoked ? 401 : 200);
    expect((await refreshWith(tokens.refresh_token)).status).toBe(revoked ? 401 : 200);
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      expect(await introspection(token)).toEqual(revoked ? { active: false } : expect.objectContaining({ active: true }));
    }
  });
});

test('a refresh token revoked stays revoked: no variant of it grants, and none of the grant outlives it', async () => {
  const tokens = await getToken(api.url, client);
  const through = (await (await refreshWith(tokens.refresh_token)).json()) as TokenSet;
  expect((await oauth('revoke', tokens.refresh_token)).status).toBe(200);
  for (const variant of [tokens.refresh_token, `${tokens.refresh_token}A`, `${tokens.refresh_token}_`]) {
    expect((await refreshWith(variant)).status).toBe(401);
  }
  for (const access of [tokens.access_token, through.access_token]) {
    expect((await listKnaps(api.url, access)).status).toBe(401);
    expect(await introspection(access)).toEqual({ active: false });
  }
});
