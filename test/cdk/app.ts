import { readFileSync } from 'node:fs';
import { App, Validations } from 'aws-cdk-lib';
import cdkNag from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { RouteDefinition } from '../../functions/routes.js';
import { DEFAULT_STACK_NAME, settingsFromContext } from '../../lib/config.js';
import type { KnapDataStack } from '../../lib/data.js';
import { type KnapStack, knapStacks } from '../../lib/knap-stack.js';

/** The context of cdk.json, so tests synthesize what `npm run synth` does (feature flags included). */
export const cdkJsonContext = (): Record<string, unknown> =>
  (JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }).context;

export interface SynthOptions {
  /** Extra context, as `-c key=value` gives it. */
  context?: Record<string, unknown>;
  /** Run esbuild for real; without it assets are not bundled. */
  bundle?: boolean;
  /** Register cdk-nag's AwsSolutions plugin as bin/knap.ts does: synth then fails on any finding. */
  nag?: boolean;
  /** Another route table (tests that measure the stack's room). */
  routes?: readonly RouteDefinition[];
}

/** Builds the app as bin/knap.ts does, writing its cloud assembly to `outdir` when synthesized. */
export const buildApp = (options: SynthOptions, outdir: string): { app: App; stack: KnapStack; data: KnapDataStack } => {
  const app = new App({
    outdir,
    context: {
      ...cdkJsonContext(),
      // What the CDK CLI sets: asset paths in the template's metadata (SAM reads them too).
      'aws:cdk:enable-asset-metadata': true,
      // A new deployment, unless a test adopts a table: synth makes no table unless told which.
      ...(options.context?.tableName ? {} : { freshDeployment: true }),
      ...options.context,
      // No stack bundles its assets unless asked: the template does not depend on the bundle.
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
    },
  });
  const { api: stack, data } = knapStacks(app, {
    stackName: DEFAULT_STACK_NAME,
    settings: settingsFromContext(app.node),
    routes: options.routes,
  });
  if (options.nag) Validations.of(app).addPlugins(new cdkNag.AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack, data };
};

export interface Acknowledgment {
  path: string;
  id: string;
  reason: string;
}

/** Every rule acknowledged with Validations.of(construct).acknowledge, where it was acknowledged. */
export const acknowledgments = (root: IConstruct): Acknowledgment[] =>
  root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );

/** cdk-nag's AwsSolutions findings on the construct tree, one line each, and whether there were none. */
export const nagFindings = (root: IConstruct): { violations: string[]; success: boolean } => {
  const report = new cdkNag.AwsSolutionsChecks().validateScope(root);
  return {
    violations: report.violations.map(
      (violation) =>
        `${violation.severity} ${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`,
    ),
    success: report.success,
  };
};
