/** ipaddr.js's special-purpose ranges, by family, in its order (special-ranges.mjs). */
export declare const specialRanges: () => Record<'ipv4' | 'ipv6', [string, [string, number][]][]>;
/** The text of shared/webhooks/special-ranges.ts, before formatting. */
export declare const specialRangesSource: () => string;
