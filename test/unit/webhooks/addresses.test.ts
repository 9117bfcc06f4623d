import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { specialRanges } from '../../../scripts/special-ranges.mjs';
import { addressRefusal, RANGE_WORDS } from '../../../shared/webhooks/addresses.js';
import { SPECIAL_RANGES } from '../../../shared/webhooks/special-ranges.js';
import { checkWebhookUrl, describeUrl } from '../../../shared/webhooks/urls.js';

describe('addressRefusal: only public unicast addresses pass', () => {
  test.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['172.32.0.1'], // just past 172.16.0.0/12
    ['100.128.0.1'], // just past 100.64.0.0/10
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8'],
  ])('%s is public', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  test.each([
    ['10.0.0.1', 'a private address'],
    ['10.255.255.255', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.254', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['127.0.0.1', 'a loopback address'],
    ['127.12.34.56', 'a loopback address'],
    ['169.254.169.254', 'a link-local address'], // the cloud metadata service
    ['169.254.0.1', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.254', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['224.0.0.251', 'a multicast address'],
    ['255.255.255.255', 'a broadcast address'],
    ['192.0.2.10', 'a reserved address'], // documentation
    ['198.18.0.1', 'a reserved address'], // benchmarking
    ['240.0.0.1', 'a reserved address'],
    ['::1', 'a loopback address'],
    ['[::1]', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a private address'], // unique local
    ['fd00:ec2::254', 'a private address'], // the metadata service over IPv6
    ['ff02::1', 'a multicast address'],
    ['::ffff:10.0.0.1', 'a private address'], // IPv4-mapped: judged as what it maps to
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:169.254.169.254', 'a link-local address'],
    ['64:ff9b::a00:1', 'a reserved address'], // NAT64 of 10.0.0.1
    ['2002:a00:1::', 'a reserved address'], // 6to4 of 10.0.0.1
    ['2001:db8::1', 'a reserved address'],
    ['4000::1', 'a reserved address'], // outside 2000::/3, unassigned
    ['not an address', 'an address that cannot be read'],
  ])('%s is refused as %s', (address, refusal) => {
    expect(addressRefusal(address)).toBe(refusal);
  });
});

/** What ipaddr.js itself answers (its range() and match()), as addresses.ts did with it, in the same words: the reference. */
const ipaddrRefusal = (address: string): string | null => {
  const said = (range: string) => (range === 'unicast' ? null : `${RANGE_WORDS[range] ?? 'a reserved'} address`);
  const text = address.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(text)) return 'an address that cannot be read';
  const parsed = ipaddr.parse(text);
  if (parsed instanceof ipaddr.IPv4) return said(parsed.range());
  if (parsed.isIPv4MappedAddress()) return said(parsed.toIPv4Address().range());
  const range = said(parsed.range());
  if (range) return range;
  return parsed.match(ipaddr.IPv6.parse('2000::'), 3) ? null : 'a reserved address';
};

/**
 * An IPv6 address with an IPv4 tail, in hex as the WHATWG URL parser writes it: ipaddr.js reads
 * `::11.0.0.0` (IPv4-compatible, ::b00:0) as `::ffff:11.0.0.0` (IPv4-mapped), and would pass it.
 */
const hexTail = (address: string): string => {
  const [text = '', zone] = address.split('%');
  if (!text.includes(':') || !text.includes('.')) return address;
  const hex = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  return zone === undefined ? hex : `${hex}%${zone}`;
};

/** The address `offset` away from `address` (wrapping at the ends of the family's space). */
const shifted = (address: string, offset: number): string => {
  const bytes = ipaddr.parse(address).toByteArray();
  let carry = offset;
  for (let index = bytes.length - 1; index >= 0 && carry !== 0; index -= 1) {
    const sum = (bytes[index] ?? 0) + carry;
    bytes[index] = ((sum % 256) + 256) % 256;
    carry = Math.floor(sum / 256);
  }
  return ipaddr.fromByteArray(bytes).toString();
};

describe('addressRefusal answers as ipaddr.js does', () => {
  test("the ranges are the installed ipaddr.js's, in its order (node scripts/special-ranges.mjs rewrites them)", () => {
    expect(SPECIAL_RANGES).toEqual(specialRanges());
  });

  // Every range's first and last address, the ones just outside, and each IPv4 one mapped into IPv6.
  const edges = SPECIAL_RANGES.ipv4.concat(SPECIAL_RANGES.ipv6, [['global unicast', [['2000::', 3]]]]).flatMap(([, subnets]) =>
    subnets.flatMap(([network, prefix]) => {
      const v4 = ipaddr.IPv4.isValid(network);
      const last = (v4 ? ipaddr.IPv4 : ipaddr.IPv6).broadcastAddressFromCIDR(`${network}/${prefix}`).toString();
      const around = [network, shifted(network, -1), last, shifted(last, 1)];
      return v4 ? around.flatMap((address) => [address, `::ffff:${address}`]) : around;
    }),
  );
  test.each(edges.map((address) => [address]))('%s', (address) => {
    expect(addressRefusal(address)).toBe(ipaddrRefusal(address));
  });

  test('any address, in any form Node.js reads', () => {
    const mapped = fc.ipV4().map((address) => `::ffff:${address}`);
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), mapped), (address) => {
        expect(addressRefusal(address)).toBe(ipaddrRefusal(hexTail(address)));
      }),
      { numRuns: 20_000 },
    );
  });

  test('with a zone id, refused or not as ipaddr.js says', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.constantFrom('eth0', '1'), (address, zone) => {
        const zoned = `${address}%${zone}`;
        expect(addressRefusal(zoned)).toBe(ipaddrRefusal(hexTail(zoned)));
      }),
      { numRuns: 5_000 },
    );
    expect(addressRefusal('fe80::1%eth0')).toBe('a link-local address');
    // Longer than libuv reads with a zone (39 characters): judged whole.
    expect(addressRefusal('2000:000:000:000:0000:0000:100.100.100.0%eth0')).toBeNull();
    expect(addressRefusal('0000:0000:0000:0000:0000:ffff:10.1.1.255%x')).toBe('a private address');
    expect(addressRefusal('10.0.0.1%eth0')).toBe('an address that cannot be read');
  });

  test('an IPv4 tail without ffff: is IPv4-compatible, not mapped, and outside 2000::/3', () => {
    expect(addressRefusal('::11.0.0.0')).toBe('a reserved address');
    expect(addressRefusal('::0.0.0.1')).toBe('a loopback address');
    expect(addressRefusal('::ffff:11.0.0.0')).toBeNull();
  });

  test('IPv4 written as Node.js does not read it (octal, hex, fewer parts) is refused, whatever ipaddr.js makes of it', () => {
    fc.assert(
      fc.property(fc.ipV4Extended(), (address) => {
        const refusal = addressRefusal(address);
        if (refusal === null) expect(ipaddrRefusal(address)).toBeNull();
      }),
      { numRuns: 5_000 },
    );
    expect(addressRefusal('0x8.8.8.8')).toBe('an address that cannot be read');
    expect(addressRefusal('010.0.0.1')).toBe('an address that cannot be read');
  });
});

describe('checkWebhookUrl', () => {
  const deployed = { allowLocalhost: false };
  const local = { allowLocalhost: true };

  test('deployed: https to a public host passes; its address is checked when connecting', () => {
    const checked = checkWebhookUrl('https://hooks.example.com/knap?team=1', deployed);
    expect(checked).toMatchObject({ ok: true, local: false });
    expect(checkWebhookUrl('https://8.8.8.8/hook', deployed)).toMatchObject({ ok: true });
  });

  test.each([
    ['http://hooks.example.com/knap', /must be https/],
    ['ftp://hooks.example.com/knap', /must be https/],
    [
      'http://127.0.0.1:8080/hook',
      /must be https \(http:\/\/127\.0\.0\.1 and http:\/\/localhost only against a local DynamoDB\)/,
    ],
    ['http://localhost:8080/hook', /must be https/],
    ['https://localhost/hook', /host localhost is a loopback address/],
    ['https://api.localhost/hook', /loopback/],
    ['https://127.0.0.1/hook', /host 127\.0\.0\.1 is a loopback address/],
    ['https://10.1.2.3/hook', /a private address/],
    ['https://169.254.169.254/latest/meta-data', /a link-local address/],
    ['https://[::1]/hook', /a loopback address/],
    ['https://[::ffff:a00:1]/hook', /a private address/],
    ['https://2130706433/hook', /loopback/], // 127.0.0.1 written as one number
    ['https://0x7f.1/hook', /loopback/],
    ['https://user:pass@hooks.example.com/', /user name or password/],
    ['not a url', /Not a URL/],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, /at most 2048/],
  ])('deployed: %s is refused', (url, reason) => {
    const checked = checkWebhookUrl(url, deployed);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toMatch(reason);
  });

  test('locally: http and https to 127.0.0.1 and localhost, any port, and the deployed rules for the rest', () => {
    for (const url of ['http://127.0.0.1:3001/hook', 'http://localhost:9/x', 'https://localhost/x', 'http://127.0.0.1/']) {
      expect(checkWebhookUrl(url, local)).toMatchObject({ ok: true, local: true });
    }
    expect(checkWebhookUrl('https://hooks.example.com/', local)).toMatchObject({ ok: true, local: false });
    for (const url of ['http://hooks.example.com/', 'http://10.0.0.1/', 'http://127.0.0.2/', 'http://[::1]:3000/']) {
      expect(checkWebhookUrl(url, local).ok).toBe(false);
    }
    expect(checkWebhookUrl('https://192.168.0.10/', local).ok).toBe(false);
  });

  test('errors name a URL by its scheme, host and port: never its path, query, fragment or credentials', () => {
    expect(describeUrl(new URL('https://hooks.example.com:8443/a/b?token=s3cret#frag'))).toBe('https://hooks.example.com:8443');
    expect(describeUrl(new URL('https://hooks.slack.com/services/T000/B000/XXXXsecret'))).toBe('https://hooks.slack.com');
  });
});
