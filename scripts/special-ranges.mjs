// @ts-check
/**
 * Writes shared/webhooks/special-ranges.ts from ipaddr.js's own tables of special-purpose
 * ranges, in its order. Run after upgrading ipaddr.js (test/unit/webhooks/addresses.test.ts
 * fails until the file matches the installed version):
 *
 *   node scripts/special-ranges.mjs
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const ipaddr = require('ipaddr.js');

/** `{ ipv4: [[name, [[address, prefix], ...]], ...], ipv6: [...] }` as ipaddr.js declares them. */
export const specialRanges = () => {
  /** @param {Record<string, unknown>} ranges */
  const listed = (ranges) =>
    Object.entries(ranges).map(([name, value]) => {
      const subnets = /** @type {[{ toString(): string }, number][]} */ (
        Array.isArray(/** @type {unknown[]} */ (value)[0]) ? value : [value]
      );
      return [name, subnets.map(([address, prefix]) => [address.toString(), prefix])];
    });
  return { ipv4: listed(ipaddr.IPv4.prototype.SpecialRanges), ipv6: listed(ipaddr.IPv6.prototype.SpecialRanges) };
};

/** The module's text. */
export const specialRangesSource = () => {
  const { version } = JSON.parse(readFileSync(require.resolve('ipaddr.js/package.json'), 'utf8'));
  const ranges = specialRanges();
  const family = (/** @type {[string, [string, number][]][]} */ lists) =>
    lists.map(([name, subnets]) => `[${JSON.stringify(name)}, ${JSON.stringify(subnets)}],`).join('\n');
  return `/**
 * The special-purpose address ranges of ipaddr.js ${version}, by its names and in its order (the
 * first that holds an address names it): written by scripts/special-ranges.mjs, and held to the
 * installed ipaddr.js by test/unit/webhooks/addresses.test.ts.
 */
export const SPECIAL_RANGES: Record<'ipv4' | 'ipv6', readonly (readonly [string, readonly (readonly [string, number])[]])[]> = {
  ipv4: [
${family(ranges.ipv4)}
  ],
  ipv6: [
${family(ranges.ipv6)}
  ],
};
`;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = resolve(import.meta.dirname, '../shared/webhooks/special-ranges.ts');
  writeFileSync(file, specialRangesSource());
  execFileSync(process.execPath, [require.resolve('@biomejs/biome/bin/biome'), 'format', '--write', file], { stdio: 'inherit' });
}
