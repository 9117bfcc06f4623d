/**
 * Lambda bundles only: stands in for `@aws-sdk/credential-provider-node` (esbuild alias,
 * BUNDLE_ALIASES in scripts/lambda-bundle.mjs). A function's credentials are always in its
 * environment, so the default chain's INI, SSO, process and IMDS providers (and the STS and
 * SSO clients they bring, ~130 KB and `child_process`) would be parsed at every cold start
 * for nothing.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
