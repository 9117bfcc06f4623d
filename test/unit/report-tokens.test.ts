/**
 * Report tokens (shared/domain/report-tokens.ts) under attack: every one-character variant,
 * truncations, extensions, respellings, another run's, expired, and tokens of the other kinds
 * sealed under the very same key, which must never pass for a report token (nor the reverse).
 */
import { checkReportToken, openReportToken, REPORT_TOKEN_PREFIX, sealReportToken } from '../../shared/domain/report-tokens.js';
import { seal, staticKeyring, unseal } from '../../shared/domain/sealed-tokens.js';
import { readToken } from '../../shared/domain/tokens.js';
import { testKeyring } from '../support/token-keys.js';
import { oneCharacterAway } from '../support/token-variants.js';

const RUN = 'run_q7Lx2VbN9cRt4KwZ8mPa1sYd6FhJ3uGe';
const OTHER_RUN = 'run_A7Lx2VbN9cRt4KwZ8mPa1sYd6FhJ3uGe';
const NOW = 1_795_000_000;
const claims = { runId: RUN, orgName: 'acme', expiresAt: NOW + 24 * 3600 };

test('a report token opens to what it was sealed with, and is good only for its run until it expires', async () => {
  const token = await sealReportToken(claims, testKeyring);
  expect(token.startsWith(REPORT_TOKEN_PREFIX)).toBe(true);
  expect(await openReportToken(token, testKeyring)).toEqual(claims);
  expect(await checkReportToken(token, RUN, NOW, testKeyring)).toEqual(claims);
  expect(await checkReportToken(token, OTHER_RUN, NOW, testKeyring)).toBe('other_run');
  expect(await checkReportToken(token, RUN, claims.expiresAt - 1, testKeyring)).toEqual(claims);
  expect(await checkReportToken(token, RUN, claims.expiresAt, testKeyring)).toBe('expired');
});

test('every one-character variant (insert, delete, substitute at every position) is refused', async () => {
  const token = await sealReportToken(claims, testKeyring);
  let tried = 0;
  for (const variant of oneCharacterAway(token)) {
    if (variant === token) continue;
    tried += 1;
    expect(await openReportToken(variant, testKeyring)).toBeNull();
  }
  expect(tried).toBeGreaterThan(10_000);
});

test('truncated, extended, respelled (spare bits of the last character), padded or re-cased tokens are refused', async () => {
  const token = await sealReportToken(claims, testKeyring);
  const body = token.slice(REPORT_TOKEN_PREFIX.length);
  const variants = [
    token.slice(0, -1),
    token.slice(0, -4),
    token.slice(0, REPORT_TOKEN_PREFIX.length + 10),
    REPORT_TOKEN_PREFIX,
    `${token}A`,
    `${token}AAAA`,
    `${token}=`,
    `${token}==`,
    ` ${token}`,
    token.toUpperCase(),
    `knap_at_${body}`,
    `knap_rt_${body}`,
    body,
    // Same bytes, another spelling: the last character's spare bits set.
    ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      .split('')
      .map((last) => token.slice(0, -1) + last)
      .filter(
        (variant) => variant !== token && Buffer.from(variant.slice(9), 'base64url').equals(Buffer.from(body, 'base64url')),
      ),
  ];
  for (const variant of variants) expect(await openReportToken(variant, testKeyring)).toBeNull();
});

test('a token sealed under a key the ring does not hold, or with the claims changed under the same MAC, is refused', async () => {
  const otherRing = staticKeyring([Buffer.from('another-deployment-token-key-0123456789abcdef')]);
  expect(await openReportToken(await sealReportToken(claims, otherRing), testKeyring)).toBeNull();
  // Move the expiry a day on, keeping the MAC: the MAC no longer holds.
  const token = await sealReportToken(claims, testKeyring);
  const bytes = Buffer.from(token.slice(REPORT_TOKEN_PREFIX.length), 'base64url');
  bytes.writeUInt32BE(claims.expiresAt + 86_400, 5);
  expect(await openReportToken(REPORT_TOKEN_PREFIX + bytes.toString('base64url'), testKeyring)).toBeNull();
  // Name another run of the same length, keeping the MAC.
  const swapped = Buffer.from(bytes);
  swapped.writeUInt32BE(claims.expiresAt, 5);
  const at = swapped.indexOf(Buffer.from(RUN));
  Buffer.from(OTHER_RUN).copy(swapped, at);
  expect(await openReportToken(REPORT_TOKEN_PREFIX + swapped.toString('base64url'), testKeyring)).toBeNull();
});

test('access and refresh tokens sealed with the same key are no report tokens, and a report token is no access or refresh token', async () => {
  const key = await testKeyring.signingKey();
  for (const kind of ['access', 'refresh'] as const) {
    const sealed = seal(
      { kind, clientId: RUN, generation: 0, scope: 'knaps:read', issuedAt: NOW, expiresAt: NOW + 3600, grantId: null },
      key,
    );
    const prefix = kind === 'access' ? 'knap_at_' : 'knap_rt_';
    expect(await openReportToken(prefix + sealed.body, testKeyring)).toBeNull();
    expect(await openReportToken(REPORT_TOKEN_PREFIX + sealed.body, testKeyring)).toBeNull();
  }
  const report = await sealReportToken(claims, testKeyring);
  const body = report.slice(REPORT_TOKEN_PREFIX.length);
  expect(await unseal(body, testKeyring)).toBeNull();
  for (const kind of ['access', 'refresh'] as const) {
    expect((await readToken(report, kind, testKeyring, false)).format).toBe('invalid');
    expect((await readToken(`knap_${kind === 'access' ? 'at' : 'rt'}_${body}`, kind, testKeyring, false)).format).toBe('invalid');
  }
});
