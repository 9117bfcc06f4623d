/** Every character a bearer header or a form may carry, beyond base64url's own. */
export const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.~+/';

/** Every string one insertion, deletion or substitution of a character away from `token`. */
export function* oneCharacterAway(token: string): Generator<string> {
  for (let at = 0; at <= token.length; at += 1) {
    for (const character of TOKEN_ALPHABET) yield token.slice(0, at) + character + token.slice(at);
    if (at === token.length) break;
    yield token.slice(0, at) + token.slice(at + 1);
    for (const character of TOKEN_ALPHABET) {
      if (character !== token[at]) yield token.slice(0, at) + character + token.slice(at + 1);
    }
  }
}

/**
 * About `count` of those, spread evenly over every position and kind of change, plus the
 * ones an attacker tries first: a character appended or dropped at the end.
 */
export const sampleOneCharacterAway = (token: string, count: number): string[] => {
  const all = [...oneCharacterAway(token)];
  const stride = Math.max(1, Math.floor(all.length / count));
  const sampled = all.filter((_, index) => index % stride === 0);
  return [...new Set([`${token}A`, `${token}_`, `${token}AA`, token.slice(0, -1), ...sampled])];
};
