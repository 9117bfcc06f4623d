import { readFileSync } from 'node:fs';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import cdkNag from 'cdk-nag';
import { DEFAULT_STACK_NAME, settingsFromContext } from '../../lib/config.js';
import { KnapStack } from '../../lib/knap-stack.js';

/** The context of cdk.json, so tests synthesize what `npm run synth` does (feature flags included). */
export const cdkJsonContext = (): Record<string, unknown> =>
  (JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }).context;

export interface SynthOptions {
  /** Extra context, as `-c key=value` gives it. */
  context?: Record<string, unknown>;
  /** Run esbuild for real (slow); by default assets are not bundled. */
  bundle?: boolean;
  outdir?: string;
  /** Register cdk-nag's AwsSolutions plugin as bin/knap.ts does: synth then fails on any finding. */
  nag?: boolean;
}

export interface Synthesized {
  app: App;
  stack: KnapStack;
  template: Template;
}

/** Builds the app as bin/knap.ts does and synthesizes it once. */
export const synthesize = (options: SynthOptions = {}): Synthesized => {
  const app = new App({
    outdir: options.outdir,
    context: {
      ...cdkJsonContext(),
      // What the CDK CLI sets: asset paths in the template's metadata (SAM reads them too).
      'aws:cdk:enable-asset-metadata': true,
      ...options.context,
      // No stack bundles its assets unless asked: the template does not depend on the bundle.
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
    },
  });
  const stack = new KnapStack(app, DEFAULT_STACK_NAME, { settings: settingsFromContext(app.node) });
  if (options.nag) Validations.of(app).addPlugins(new cdkNag.AwsSolutionsChecks(app, { verbose: true }));
  const template = Template.fromStack(stack);
  return { app, stack, template };
};

// CloudFormation properties are free-form JSON whose shape each test asserts on.
// biome-ignore lint/suspicious/noExplicitAny: template JSON has no static type
type Resources = Record<string, { Type: string; Properties?: Record<string, any>; [key: string]: unknown }>;

export const resourcesOf = (template: Template, type: string): Resources => template.findResources(type) as Resources;
