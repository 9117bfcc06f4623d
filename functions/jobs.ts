/**
 * The functions no HTTP route calls: the CDK stack gives each its trigger, the local stack
 * runs the same code in-process, and events/<id>/ holds an event for local invocation.
 */
export interface JobDefinition {
  /** Stable id: CDK construct id, events/<id>/ folder. */
  readonly id: string;
  /** Handler source, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  /**
   * `schedule`: EventBridge every minute (the dispatcher's coordinator; its workers read the
   * dispatch queue, lib/runs.ts); `queue`: the run delivery SQS queue.
   */
  readonly trigger: 'schedule' | 'queue';
}

export const jobs: readonly JobDefinition[] = [
  {
    id: 'dispatch-runs',
    entry: 'functions/dispatch-runs/handler.ts',
    description:
      'Every minute: create the runs of due scheduled Knaps and queue them for delivery, fanning busy minutes out to a few workers',
    trigger: 'schedule',
  },
  {
    id: 'deliver-runs',
    entry: 'functions/deliver-runs/handler.ts',
    description: 'Deliver queued runs to the webhook endpoints of their organization (Standard Webhooks)',
    trigger: 'queue',
  },
];
