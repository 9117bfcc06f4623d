/**
 * Which IP addresses a webhook may be sent to. An allowlist, not a blocklist: an address
 * passes only when ipaddr.js files it as plain `unicast` (every private, loopback,
 * link-local, carrier-grade NAT, multicast, documentation, benchmarking and otherwise
 * reserved range has a name of its own there), and an IPv6 one only inside 2000::/3, the
 * global unicast block, so an address in a range nobody has named yet is refused too.
 */
import ipaddr from 'ipaddr.js';

/** Why an address is refused, as a few words ("a private address"), or null when it is public. */
export const addressRefusal = (address: string): string | null => {
  const text = address.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(text)) return 'an address that cannot be read';
  const parsed = ipaddr.parse(text);
  if (parsed instanceof ipaddr.IPv4) return v4Refusal(parsed);
  // ::ffff:10.0.0.1 reaches 10.0.0.1: judge what it maps to.
  if (parsed.isIPv4MappedAddress()) return v4Refusal(parsed.toIPv4Address());
  const range = parsed.range();
  if (range !== 'unicast') return refusalOf(range);
  return parsed.match(GLOBAL_UNICAST_V6) ? null : 'a reserved address';
};

const v4Refusal = (parsed: ipaddr.IPv4): string | null => {
  const range = parsed.range();
  return range === 'unicast' ? null : refusalOf(range);
};

const refusalOf = (range: string): string => `${RANGE_WORDS[range] ?? 'a reserved'} address`;

const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

/** ipaddr.js range names, said for a person (last_error, the admin CLI). */
const RANGE_WORDS: Record<string, string> = {
  private: 'a private',
  uniqueLocal: 'a private',
  loopback: 'a loopback',
  linkLocal: 'a link-local',
  carrierGradeNat: 'a carrier-grade NAT',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
};
