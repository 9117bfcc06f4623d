/**
 * Which IP addresses a webhook may be sent to. An allowlist, not a blocklist: an address
 * passes only when no special-purpose range of ipaddr.js holds it (every private, loopback,
 * link-local, carrier-grade NAT, multicast, documentation, benchmarking and otherwise
 * reserved range has a name of its own there), and an IPv6 one only inside 2000::/3, the
 * global unicast block, so an address in a range nobody has named yet is refused too.
 *
 * The ranges are ipaddr.js's own (special-ranges.ts, held to the installed version by a test);
 * Node.js's BlockList matches them. ipaddr.js itself builds its tables as it loads, which every
 * deliverer container paid for at its cold start (docs/performance.md).
 */
import { BlockList, isIP } from 'node:net';
import { SPECIAL_RANGES } from './special-ranges.js';

type Family = 'ipv4' | 'ipv6';

interface Ranges {
  ipv4: { name: string; list: BlockList }[];
  ipv6: { name: string; list: BlockList }[];
  /** ::ffff:0:0/96, IPv4-mapped IPv6. */
  mapped: BlockList;
  /** 2000::/3, global unicast. */
  global: BlockList;
}

const blockList = (family: Family, subnets: readonly (readonly [string, number])[]): BlockList => {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
  return list;
};

let ranges: Ranges | undefined;

/** Built with the first address checked. */
const rangesToCheck = (): Ranges => {
  ranges ??= {
    ipv4: SPECIAL_RANGES.ipv4.map(([name, subnets]) => ({ name, list: blockList('ipv4', subnets) })),
    ipv6: SPECIAL_RANGES.ipv6.map(([name, subnets]) => ({ name, list: blockList('ipv6', subnets) })),
    mapped: blockList('ipv6', [['::ffff:0:0', 96]]),
    global: blockList('ipv6', [['2000::', 3]]),
  };
  return ranges;
};

/** The name of the first range of `named` that holds the address, or null. */
const rangeOf = (named: Ranges['ipv4'], address: string, family: Family): string | null =>
  named.find(({ list }) => list.check(address, family))?.name ?? null;

/** Why an address is refused, as a few words ("a private address"), or null when it is public. */
export const addressRefusal = (address: string): string | null => {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  // An IPv6 address without its zone (fe80::1%eth0), which names an interface, not an address:
  // BlockList reads through libuv, which cuts a zoned address to its first 39 characters.
  const text = bare.includes(':') ? bare.replace(/%.*$/, '') : bare;
  const version = isIP(text);
  if (version === 0) return 'an address that cannot be read';
  const { ipv4, ipv6, mapped, global } = rangesToCheck();
  if (version === 4) return refusalOf(rangeOf(ipv4, text, 'ipv4'));
  // ::ffff:10.0.0.1 reaches 10.0.0.1: judge what it maps to (BlockList matches a mapped
  // address against IPv4 ranges as the address it maps to).
  if (mapped.check(text, 'ipv6')) return refusalOf(rangeOf(ipv4, text, 'ipv6'));
  const refusal = refusalOf(rangeOf(ipv6, text, 'ipv6'));
  if (refusal) return refusal;
  return global.check(text, 'ipv6') ? null : 'a reserved address';
};

const refusalOf = (range: string | null): string | null =>
  range === null ? null : `${RANGE_WORDS[range] ?? 'a reserved'} address`;

/** ipaddr.js range names, said for a person (last_error, the admin CLI); any other is "a reserved". */
export const RANGE_WORDS: Readonly<Record<string, string>> = {
  private: 'a private',
  uniqueLocal: 'a private',
  loopback: 'a loopback',
  linkLocal: 'a link-local',
  carrierGradeNat: 'a carrier-grade NAT',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
};
