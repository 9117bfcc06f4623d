import { request } from 'node:http';
import { setRateLimit } from '../../shared/services/admin-service.js';
import { getToken, listKnaps, postToken, startTestApi, type TestApi } from '../support/api.js';
import { body } from '../support/json.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const get = (headers: Record<string, string>) => fetch(`${api.url}/api/studio/knap-tools`, { headers });

describe('bearer authentication on /api/studio/*', () => {
  test.each([
    ['no Authorization header', {}, 'Missing bearer token. Send Authorization: Bearer <access token>'],
    ['an empty header', { authorization: '' }, 'Missing bearer token. Send Authorization: Bearer <access token>'],
    ['another scheme', { authorization: 'Basic abc' }, "Authorization header must be 'Bearer <access token>'"],
    ['Bearer with no token', { authorization: 'Bearer ' }, "Authorization header must be 'Bearer <access token>'"],
    ['an unknown token', { authorization: 'Bearer knap_at_doesnotexist' }, 'Invalid access token'],
    ['not our token shape', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' }, 'Invalid access token'],
  ])('%s: 401 with {"detail"} and WWW-Authenticate: Bearer', async (_, headers, detail) => {
    const response = await get(headers);
    expect(response.status).toBe(401);
    expect(await body(response)).toEqual({ detail });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="knap"/);
    expect(response.headers.get('ratelimit-limit')).toBeNull();
  });

  test('the scheme is case-insensitive', async () => {
    const tokens = await getToken(api.url, await api.newClient());
    expect((await get({ authorization: `bearer ${tokens.access_token}` })).status).toBe(200);
  });

  test('GET /api/studio/knap-tools answers the contract shape', async () => {
    const tokens = await getToken(api.url, await api.newClient());
    const response = await listKnaps(api.url, tokens.access_token);
    expect(response.status).toBe(200);
    expect(await body(response)).toEqual({ my_knaps: [], organization_knaps: [], public_knaps: [], next_cursor: null });
  });

  test('a token without the needed scope gets 403 insufficient_scope', async () => {
    const client = await api.newClient();
    const response = await postToken(api.url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'write:knaps',
    });
    const { access_token } = await body(response);
    const list = await listKnaps(api.url, access_token);
    expect(list.status).toBe(403);
    expect(list.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect((await body(list)).detail).toMatch(/read:knaps/);
  });
});

describe('per-client rate limit over HTTP', () => {
  test('RateLimit-* headers on every response to a known client; 429 with Retry-After past the limit', async () => {
    api.clock.set('2026-11-23T11:00:15Z');
    const client = await api.newClient({ rateLimit: 3 });
    const tokenResponse = await postToken(api.url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(tokenResponse.headers.get('ratelimit-limit')).toBe('3');
    expect(tokenResponse.headers.get('ratelimit-remaining')).toBe('2');
    expect(tokenResponse.headers.get('ratelimit-reset')).toBe('45');
    const { access_token } = await body(tokenResponse);

    const second = await listKnaps(api.url, access_token);
    expect(second.status).toBe(200);
    expect(second.headers.get('ratelimit-remaining')).toBe('1');
    expect((await listKnaps(api.url, access_token)).headers.get('ratelimit-remaining')).toBe('0');

    const limited = await listKnaps(api.url, access_token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect((await body(limited)).detail).toMatch(/^Rate limit exceeded/);

    // Token requests count against the same limit.
    const tokenLimited = await postToken(api.url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(tokenLimited.status).toBe(429);
    expect(tokenLimited.headers.get('cache-control')).toBe('no-store');

    api.clock.advance(45);
    expect((await listKnaps(api.url, access_token)).status).toBe(200);
  });

  test('40 simultaneous requests against 20 remaining: exactly 20 pass', async () => {
    api.clock.set('2026-11-23T12:00:01Z');
    const client = await api.newClient({ rateLimit: 21 });
    const { access_token } = await getToken(api.url, client); // 1 used, 20 remaining

    const statuses = await Promise.all(Array.from({ length: 40 }, async () => (await listKnaps(api.url, access_token)).status));

    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  test('a new limit applies to the next request', async () => {
    api.clock.set('2026-11-23T13:00:01Z');
    const client = await api.newClient({ rateLimit: 1 });
    const { access_token } = await getToken(api.url, client);
    expect((await listKnaps(api.url, access_token)).status).toBe(429);
    await setRateLimit(api.deps, client.clientId, 10);
    const response = await listKnaps(api.url, access_token);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBe('10');
  });
});

describe('the local server itself', () => {
  test('unknown paths and methods answer {"detail"}', async () => {
    const missing = await fetch(`${api.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await body(missing)).toEqual({ detail: 'No route for GET /nope' });
    const method = await fetch(`${api.url}/api/oauth/token`);
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
  });

  test('a request target no URL can be read from is a 400, not a failure', async () => {
    // fetch would tidy the target; `/\\` is `//`, a URL with no host.
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      request(`${api.url}/`, { path: '/\\' }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      })
        .on('error', reject)
        .end();
    });
    expect(answer).toEqual({
      status: 400,
      text: JSON.stringify({ detail: 'The request target is not a path this server can read' }),
    });
  });
});
