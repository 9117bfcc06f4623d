/**
 * The CDK app: `npx cdk synth|deploy|destroy` (cdk.json runs this file with tsx).
 * Settings come from context (cdk.json, or `-c key=value`): see lib/config.ts.
 */
import { App, Validations } from 'aws-cdk-lib';
import cdkNag from 'cdk-nag';
import { CONTEXT_KEYS, contextFlag, DEFAULT_STACK_NAME, settingsFromContext } from '../lib/config.js';
import { knapStacks } from '../lib/knap-stack.js';
import { ensureConsoleBuilt } from '../scripts/build-console.js';

// The console function's files (console/dist) are copied beside its bundle.
await ensureConsoleBuilt();

const app = new App();
const stackName = String(app.node.tryGetContext(CONTEXT_KEYS.stackName) ?? DEFAULT_STACK_NAME);

// Two stacks: KnapData (table, keys, user pool, queues) and KnapApi (everything stateless);
// `cdk deploy --all` deploys both, KnapData first.
// A dev stack is environment-agnostic unless -c account/region pin it; any other stage must
// name both (settingsFromContext refuses it otherwise). Either way: no lookups, so synth
// needs no AWS credentials.
let settings: ReturnType<typeof settingsFromContext>;
try {
  settings = settingsFromContext(app.node);
} catch (error) {
  // A setting to fix: its one-line message (which names the key and what it takes), no stack.
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
}
const dataStackName = app.node.tryGetContext(CONTEXT_KEYS.dataStackName);
knapStacks(app, { stackName, dataStackName: dataStackName ? String(dataStackName) : undefined, settings });

// cdk-nag 3 runs as a CDK policy-validation plugin: any AwsSolutions finding (error or
// warning) not acknowledged in the stack fails the synth. `-c nag=false` skips the checks.
if (contextFlag(app.node, CONTEXT_KEYS.nag)) {
  Validations.of(app).addPlugins(new cdkNag.AwsSolutionsChecks(app, { verbose: true }));
}
