/**
 * The business and operational figures the API reports, as a port: services count through
 * `deps.metrics` and never see Powertools. Deployed, shared/lambda/metrics.ts writes them as
 * CloudWatch embedded metric format (EMF) lines; locally and in tests they go nowhere, or to
 * a `MemoryMetrics` a test reads.
 */

/** Every metric name, in namespace `KnapApi` (docs/runbook.md lists them with their dimensions). */
export const METRIC = {
  /** A token grant answered 200; dimension `grant_type`. */
  tokensIssued: 'TokensIssued',
  /** A 401; dimension `reason` (see UNAUTHORIZED_REASONS). */
  unauthorized: 'Unauthorized',
  /** A 429: a client over its per-minute limit. */
  rateLimited: 'RateLimited',
  knapsCreated: 'KnapsCreated',
  /** A run delivered to every webhook endpoint of its organization. */
  runsDelivered: 'RunsDelivered',
  /** A run given up on: retries exhausted, or its Knap deleted. */
  runsFailed: 'RunsFailed',
  /** A delivery attempt that failed and was queued to be tried again. */
  runDeliveryRetries: 'RunDeliveryRetries',
  /** Seconds between the oldest occurrence a dispatcher pass picked up and the pass; 0 when none was due. */
  dispatcherLag: 'DispatcherLagSeconds',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** Low-cardinality labels only (each distinct set is a CloudWatch metric of its own): never an id. */
export type Dimensions = Readonly<Record<string, string>>;

export interface Metrics {
  /** Adds one to a count. */
  count(name: MetricName, dimensions?: Dimensions): void;
  /** Records a duration in seconds. */
  seconds(name: MetricName, value: number, dimensions?: Dimensions): void;
  /** Writes what was recorded since the last flush; called once at the end of every invocation. */
  flush(): void;
}

export const noMetrics: Metrics = {
  count: () => {},
  seconds: () => {},
  flush: () => {},
};

export interface RecordedMetric {
  name: MetricName;
  unit: 'Count' | 'Seconds';
  value: number;
  dimensions: Dimensions;
}

/** Keeps what is recorded, for tests and the benchmark to read. */
export class MemoryMetrics implements Metrics {
  readonly recorded: RecordedMetric[] = [];
  flushes = 0;
  count(name: MetricName, dimensions: Dimensions = {}): void {
    this.recorded.push({ name, unit: 'Count', value: 1, dimensions });
  }
  seconds(name: MetricName, value: number, dimensions: Dimensions = {}): void {
    this.recorded.push({ name, unit: 'Seconds', value, dimensions });
  }
  flush(): void {
    this.flushes += 1;
  }
  /** How many of `name` were counted (with these dimensions, when given). */
  total(name: MetricName, dimensions?: Dimensions): number {
    return this.recorded
      .filter((metric) => metric.name === name)
      .filter((metric) => !dimensions || Object.entries(dimensions).every(([key, value]) => metric.dimensions[key] === value))
      .reduce((sum, metric) => sum + metric.value, 0);
  }
}
