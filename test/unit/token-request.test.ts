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
      // Called with no issuer and path: no audience a client assertion may name.
      assertionAudiences: [],
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
    expect(failure({ grant_type: 'client_credentials', client_id: 'a', client_secret: 's'.repeat(1001) }).detail).toBe(
      'Parameter client_secret is too long',
    );
  });

  test.each([
    ['over 255 bytes', 'x'.repeat(256)],
    ['over the 1,000 characters of other parameters', 'x'.repeat(1001)],
    ['NUL', 'knap_ci_\u0000'],
    ['a lone surrogate', 'knap_ci_\ud800'],
    ['an emoji', 'knap_ci_🔑'],
    ['a space', 'knap ci'],
  ])('a client id no client has (%s) is 401 Invalid client credentials, in the form or in Basic', (_, clientId) => {
    const inForm = failure({ grant_type: 'client_credentials', client_id: clientId, client_secret: 's' });
    expect([inForm.status, inForm.detail]).toEqual([401, 'Invalid client credentials']);
    const inBasic = failure({ grant_type: 'client_credentials' }, basic(`${clientId}:s`));
    expect([inBasic.status, inBasic.detail]).toEqual([401, 'Invalid client credentials']);
  });

  test('a client id of 255 visible ASCII characters is one to look up', () => {
    const clientId = `knap_ci_${'~'.repeat(247)}`;
    expect(
      parseTokenRequest({ grant_type: 'client_credentials', client_id: clientId, client_secret: 's' }, undefined).clientId,
    ).toBe(clientId);
  });
});
