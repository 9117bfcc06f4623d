import { freePort } from '../../local/ports.js';
import { type ResolvedAddress, type Resolver, type SendResult, sendWebhook } from '../../shared/webhooks/send.js';
import { type Receiver, startReceiver } from '../support/deliveries.js';

/** What a send decided, without its timing and the answer's first bytes (tests of their own below). */
const outcome = ({
  durationMs: _duration,
  snippet: _snippet,
  ...decided
}: SendResult): Omit<SendResult, 'durationMs' | 'snippet'> => decided;

const request = (url: string) => ({ url, body: '{"type":"knap.run"}', headers: { 'content-type': 'application/json' } });
const local = { allowLocalhost: true, timeoutMs: 2000 };
const deployed = { allowLocalhost: false, timeoutMs: 2000 };

/** A DNS that answers from a table and counts its questions; never the real one. */
const fakeDns = (answers: Record<string, string[]>) => {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
};

let receivers: Receiver[] = [];
const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
};
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

describe('sendWebhook: SSRF guard', () => {
  test('deployed, loopback is refused before any connection', async () => {
    const target = await receiver();
    const result = await sendWebhook(request(target.url), deployed);
    expect(outcome(result)).toEqual({ ok: false, status: null, error: expect.stringMatching(/^refused: The URL must be https/) });
    const https = await sendWebhook(request(target.url.replace('http:', 'https:')), deployed);
    expect(https).toMatchObject({
      ok: false,
      error: "refused: The URL's host 127.0.0.1 is a loopback address; webhooks go to public addresses only",
    });
    expect(target.received).toHaveLength(0);
  });

  test.each([
    ['10.0.0.7', 'a private address'],
    ['192.168.10.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.1.1', 'a carrier-grade NAT address'],
    ['127.0.0.1', 'a loopback address'],
    ['0.0.0.0', 'an unspecified address'],
    ['fd00::1', 'a private address'],
    ['::ffff:10.0.0.7', 'a private address'],
  ])('a host name that resolves to %s is refused at delivery time', async (address, refusal) => {
    const dns = fakeDns({ 'hooks.internal.test': [address] });
    const result = await sendWebhook(request('https://hooks.internal.test/knap'), { ...deployed, resolve: dns.resolve });
    expect(outcome(result)).toEqual({ ok: false, status: null, error: `refused: hooks.internal.test resolves to ${refusal}` });
    expect(dns.asked).toEqual(['hooks.internal.test']);
  });

  test('one private address among public ones is enough to refuse', async () => {
    const dns = fakeDns({ 'mixed.example.test': ['8.8.8.8', '10.0.0.1'] });
    const result = await sendWebhook(request('https://mixed.example.test/'), { ...deployed, resolve: dns.resolve });
    expect(result).toMatchObject({ ok: false, error: 'refused: mixed.example.test resolves to a private address' });
  });

  test("the connection goes to the address that was checked, with the URL's host name as Host", async () => {
    const target = await receiver();
    const port = new URL(target.url).port;
    // A DNS that would answer differently the second time (rebinding) is asked only once.
    let calls = 0;
    const resolve: Resolver = async () => {
      calls += 1;
      return calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
    };
    const result = await sendWebhook(request(`http://localhost:${port}/hooks/knap`), { ...local, resolve });
    expect(outcome(result)).toEqual({ ok: true, status: 204, body: '' });
    expect(calls).toBe(1);
    expect(target.received).toHaveLength(1);
    expect(target.received[0]?.headers.host).toBe(`localhost:${port}`);
  });

  test('locally, localhost must resolve to loopback; other hosts follow the deployed rules', async () => {
    const dns = fakeDns({ localhost: ['10.0.0.9'], 'hooks.internal.test': ['192.168.0.2'] });
    expect(await sendWebhook(request('http://localhost:9/x'), { ...local, resolve: dns.resolve })).toMatchObject({
      ok: false,
      error: 'refused: localhost does not resolve to a loopback address',
    });
    expect(await sendWebhook(request('https://hooks.internal.test/x'), { ...local, resolve: dns.resolve })).toMatchObject({
      ok: false,
      error: 'refused: hooks.internal.test resolves to a private address',
    });
  });
});

describe('sendWebhook: answers and failures', () => {
  test('2xx is delivered; anything else names the status and the URL, never the body or the query', async () => {
    const secretBody = 'Internal error: whsec_FAKEFAKEFAKE and Authorization: Bearer knap_at_leak';
    const target = await receiver((n) => (n === 1 ? { status: 200, body: 'ok' } : { status: 500, body: secretBody }));
    // A 2xx answer's body comes back (it may report the run's outcome); a failure's never does.
    expect(outcome(await sendWebhook(request(target.url), local))).toEqual({ ok: true, status: 200, body: 'ok' });
    const failed = await sendWebhook(request(`${target.url}?token=q-secret`), local);
    expect(outcome(failed)).toEqual({ ok: false, status: 500, error: `HTTP 500 from ${new URL(target.url).origin}` });
    // The answer's first bytes are kept apart (`snippet`, shown to admins only), never in the error.
    expect(JSON.stringify(outcome(failed))).not.toMatch(/whsec_|knap_at|q-secret|Internal error/);
  });

  test('a redirect is not followed', async () => {
    const target = await receiver(() => ({ status: 302 }));
    expect(await sendWebhook(request(target.url), local)).toMatchObject({
      ok: false,
      status: 302,
      error: `HTTP 302 from ${new URL(target.url).origin}`,
    });
    expect(target.received).toHaveLength(1);
  });

  test('an endpoint that never answers times out after the limit', async () => {
    const target = await receiver(() => 'hang');
    const started = Date.now();
    const result = await sendWebhook(request(target.url), { ...local, timeoutMs: 300 });
    expect(outcome(result)).toEqual({ ok: false, status: null, error: `timed out after 0.3 s (${new URL(target.url).origin})` });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a DNS that never answers times out too', async () => {
    const resolve: Resolver = () => new Promise(() => {});
    const result = await sendWebhook(request('https://slow-dns.example.test/'), { ...deployed, timeoutMs: 200, resolve });
    expect(result).toMatchObject({ ok: false, error: 'timed out after 0.2 s (https://slow-dns.example.test)' });
  });

  test('a long answer is cut short: the status counts, not the body', async () => {
    const target = await receiver(() => ({ status: 200, body: 'x'.repeat(5_000_000) }));
    expect(outcome(await sendWebhook(request(target.url), local))).toEqual({ ok: true, status: 200, body: null });
  });

  test('connection refused and unknown hosts are one line each', async () => {
    const port = await freePort();
    expect(outcome(await sendWebhook(request(`http://127.0.0.1:${port}/x`), local))).toEqual({
      ok: false,
      status: null,
      error: `connection refused by http://127.0.0.1:${port}`,
    });
    const dns = fakeDns({});
    expect(await sendWebhook(request('https://nowhere.example.test/'), { ...deployed, resolve: dns.resolve })).toMatchObject({
      error: 'cannot resolve nowhere.example.test',
    });
  });
});
