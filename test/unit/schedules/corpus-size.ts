/**
 * Prints the corpus size by phrase family: accepted rows (with their exact schedule_info and
 * next_run_at) and refused look-alikes. Run: npx tsx test/unit/schedules/corpus-size.ts
 */
import { groups, rejectedGroups } from './corpus.js';

/**
 * "family 4 across DST: ..." -> "family 4"; "issue 25, family 2: ..." -> "i25 f2"; other issue 25
 * groups are "i25 other"; "issue 46, family 1: ..." -> "i46 f1"; groups before issue 9 count as "base".
 */
const familyOf = (name: string): string => {
  const i46 = /^issue 46, family (\d+)/.exec(name);
  if (i46) return `i46 f${i46[1]}`;
  const i25 = /^issue 25, family (\d+)/.exec(name);
  if (i25) return `i25 f${i25[1]}`;
  if (name.startsWith('issue 25')) return 'i25 other';
  return /^family \d+/.exec(name)?.[0] ?? 'base';
};

const sizes = new Map<string, { accepted: number; refused: number }>();
const entry = (family: string) => {
  const found = sizes.get(family) ?? { accepted: 0, refused: 0 };
  sizes.set(family, found);
  return found;
};
for (const g of groups) entry(familyOf(g.name)).accepted += g.rows.length;
for (const g of rejectedGroups) entry(familyOf(g.name)).refused += g.rows.length;

const order = (f: string): number => {
  if (f === 'base') return 0;
  if (f === 'i25 other') return 300;
  if (f.startsWith('i25 f')) return 200 + Number(f.slice(5));
  if (f.startsWith('i46 f')) return 400 + Number(f.slice(5));
  return Number(f.split(' ')[1]);
};
const rows = [...sizes].sort(([a], [b]) => order(a) - order(b));
console.log('family      accepted  refused');
for (const [family, { accepted, refused }] of rows) {
  console.log(`${family.padEnd(10)}  ${String(accepted).padStart(8)}  ${String(refused).padStart(7)}`);
}
const total = rows.reduce((t, [, s]) => ({ accepted: t.accepted + s.accepted, refused: t.refused + s.refused }), {
  accepted: 0,
  refused: 0,
});
console.log(`${'total'.padEnd(10)}  ${String(total.accepted).padStart(8)}  ${String(total.refused).padStart(7)}`);
