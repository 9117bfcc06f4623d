import { staticKeyring } from '../../shared/domain/sealed-tokens.js';

/** The key tests seal tokens with (never a deployed one: deployed keys live in Secrets Manager). */
export const TEST_TOKEN_KEY = Buffer.from('test-only-token-signing-key-0123456789abcdef', 'utf8');

export const testKeyring = staticKeyring([TEST_TOKEN_KEY]);
