import { hashCredential } from '../../shared/domain/credentials.js';
import { rateState, windowStart } from '../../shared/domain/rate-limit.js';
import { unavailableKeyring } from '../../shared/domain/sealed-tokens.js';
import {
  acceptsStoredTokens,
  grantScope,
  isExpired,
  issueStoredToken,
  MAX_TOKEN_LENGTH,
  readToken,
} from '../../shared/domain/tokens.js';
import { storedTokensUntilFromEnv } from '../../shared/runtime.js';
import { FakeClock } from '../support/clock.js';

describe('tokens', () => {
  const owner = { clientId: 'knap_ci_1', generation: 3 };

  test('an access token: prefix, hash stored instead of the token, 3600 s life, generation copied', () => {
    const clock = new FakeClock(new Date('2026-01-01T00:00:00Z'));
    const { token, record } = issueStoredToken('access', owner, 'knaps:read', clock);
    expect(token).toMatch(/^knap_at_/);
    expect(record).toEqual({
      tokenHash: hashCredential(token),
      kind: 'access',
      clientId: 'knap_ci_1',
      generation: 3,
      scope: 'knaps:read',
      issuedAt: 1767225600,
      expiresAt: 1767225600 + 3600,
    });
    expect(JSON.stringify(record)).not.toContain(token);
  });

  test('a refresh token lives 30 days; expiry is exact to the second', () => {
    const clock = new FakeClock(new Date('2026-01-01T00:00:00Z'));
    const { token, record } = issueStoredToken('refresh', owner, '', clock);
    expect(token).toMatch(/^knap_rt_/);
    expect(record.expiresAt - record.issuedAt).toBe(30 * 24 * 3600);
    clock.advance(30 * 24 * 3600 - 1);
    expect(isExpired(record, clock)).toBe(false);
    clock.advance(1);
    expect(isExpired(record, clock)).toBe(true);
  });

  test.each([
    [undefined, 'read:knaps write:knaps'],
    ['', 'read:knaps write:knaps'],
    ['read:knaps', 'read:knaps'],
    ['  write:knaps   read:knaps write:knaps ', 'read:knaps write:knaps'],
    // The old names are aliases, granted under the new ones.
    ['knaps:write', 'write:knaps'],
    ['knaps:read read:knaps', 'read:knaps'],
    ['knaps:admin', null],
    ['read:knaps knaps:admin', null],
  ])('scope %j of a client holding both gives %j', (requested, expected) => {
    expect(grantScope(['knaps:read', 'knaps:write'], requested)).toBe(expected);
  });
});

describe('rate-limit windows', () => {
  test('fixed minutes; reset counts the seconds left, at least 1', () => {
    const now = new Date('2026-11-23T10:00:59.900Z');
    const window = windowStart(now);
    expect(new Date(window * 1000).toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(rateState(100, 100, window, now)).toEqual({ limit: 100, remaining: 0, resetSeconds: 1, window });
    expect(rateState(100, 30, window, new Date('2026-11-23T10:00:00Z'))).toEqual({
      limit: 100,
      remaining: 70,
      resetSeconds: 60,
      window,
    });
  });
});

describe('readToken', () => {
  // Any use of this keyring throws: what is refused here is refused before any key lookup.
  const noKeys = unavailableKeyring('no key may be looked up');

  test('refuses other prefixes, bare prefixes and overlong values without a key lookup', async () => {
    for (const token of ['knap_rt_x', 'knap_at_', 'Bearer', `knap_at_${'x'.repeat(MAX_TOKEN_LENGTH)}`]) {
      expect(await readToken(token, 'access', noKeys)).toEqual({ format: 'invalid' });
    }
  });

  test('a 43-character body is the stored format, looked up by its hash only while the deployment accepts them', async () => {
    const { token, record } = issueStoredToken('access', { clientId: 'knap_ci_1', generation: 1 }, 'knaps:read', new FakeClock());
    expect(await readToken(token, 'access', noKeys, true)).toEqual({ format: 'stored', tokenHash: record.tokenHash });
    expect(await readToken(token, 'access', noKeys)).toEqual({ format: 'invalid' });
  });

  test('the stored-token path is open only before STORED_TOKENS_UNTIL, and closed when it is unset', () => {
    const clock = new FakeClock(new Date('2026-11-25T12:00:00Z'));
    const until = Date.parse('2026-12-01T00:00:00Z') / 1000;
    expect(acceptsStoredTokens(until, clock)).toBe(true);
    expect(acceptsStoredTokens(undefined, clock)).toBe(false);
    clock.advance(6 * 24 * 3600);
    expect(acceptsStoredTokens(until, clock)).toBe(false);
    expect(storedTokensUntilFromEnv({ STORED_TOKENS_UNTIL: '2026-12-01T00:00:00Z' })).toBe(until);
    expect(storedTokensUntilFromEnv({})).toBeUndefined();
    expect(storedTokensUntilFromEnv({ STORED_TOKENS_UNTIL: 'soon' })).toBeUndefined();
  });
});
