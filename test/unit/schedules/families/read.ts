/** Runs one phrase family alone over a description: what it claimed, and the facts it found. */

import type { PhraseFamily } from '../../../../shared/schedules/families/family.js';
import { type Facts, readFamilies } from '../../../../shared/schedules/families/index.js';
import { tokenize } from '../../../../shared/schedules/tokens.js';

export function readWith(family: PhraseFamily, description: string): { facts: Facts; claimed: string[] } {
  const tokens = tokenize(description);
  const facts = readFamilies(tokens, description, [family]);
  return { facts, claimed: tokens.filter((t) => t.used).map((t) => t.text) };
}
