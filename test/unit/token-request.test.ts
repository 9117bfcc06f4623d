import { ApiError } from '../../shared/errors.js';
import { parseTokenRequest } from '../../shared/schemas/token-request.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

const failure = (body: unknown, authorization?: string): ApiError => {
  try {
    parseTokenRequest(body, authorization);
  } catch (error) {
    if (error instanceof ApiError) return error;
  }
  throw new Error('expected an ApiError');
};

describe('token request parsing', () => {
  test('client_secret_post', () => {
    expect(
      parseTokenRequest({ grant_type: 'client_credentials', client_id: 'a', client_secret: 'b', extra: 'ignored' }, undefined),
    ).toEqual({
      grantType: 'client_credentials',
      clientId: 'a',
      clientSecret: 'b',
      refreshToken: undefined,
      scope: undefined,
    });
  });

  test('client_secret_basic decodes form-urlencoded id and secret (RFC 6749 2.3.1)', () => {
    const request = parseTokenRequest({ grant_type: 'refresh_token', refresh_token: 'r' }, basic('my%3Aid:s%C3%A9cret+x'));
    expect(request).toMatchObject({ clientId: 'my:id', clientSecret: 'sécret x', refreshToken: 'r' });
    // client_id may repeat the header's id, never contradict it.
    expect(parseTokenRequest({ grant_type: 'client_credentials', client_id: 'a' }, basic('a:b')).clientId).toBe('a');
    expect(failure({ grant_type: 'client_credentials', client_id: 'z' }, basic('a:b')).status).toBe(400);
  });

  test.each([
    ['no colon', basic('nocolon')],
    ['bad percent-encoding', basic('%E0%A4%A:x')],
    ['not base64', 'Basic ***'],
    ['another scheme', 'Bearer knap_at_x'],
  ])('a malformed Authorization header (%s) is 401 Invalid client credentials', (_, header) => {
    const error = failure({ grant_type: 'client_credentials' }, header);
    expect([error.status, error.detail]).toEqual([401, 'Invalid client credentials']);
  });

  test('the grant type is checked before credentials', () => {
    expect(failure({}).detail).toBe("Unsupported grant_type. Use 'client_credentials' or 'refresh_token'.");
    expect(failure({ grant_type: 'client_credentials' }).detail).toBe('Missing required parameter: client_id');
  });

  test('a parameter given twice or too long is a 400 naming it', () => {
    expect(failure({ grant_type: ['a', 'b'] }).detail).toBe('Parameter grant_type must be given once');
    expect(failure({ grant_type: 'client_credentials', client_id: 'x'.repeat(1001), client_secret: 's' }).detail).toBe(
      'Parameter client_id is too long',
    );
  });
});
