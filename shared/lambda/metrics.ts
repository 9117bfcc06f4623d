/**
 * The Metrics port on Powertools Metrics: CloudWatch embedded metric format on stdout, which
 * the Lambda log agent turns into metrics in namespace `KnapApi` (no PutMetricData call, no
 * IAM right). Counts are summed in memory and written at `flush()`, one EMF line per set of
 * dimensions, so an invocation costs a line or two, not one per event.
 */
import type { Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { type Dimensions, type MetricName, type Metrics, noMetrics } from '../metrics.js';
import { powertools } from './powertools.js';

export const METRICS_NAMESPACE = 'KnapApi';

type Unit = 'Count' | 'Seconds';

interface Pending {
  dimensions: Dimensions;
  values: Map<string, { name: MetricName; unit: Unit; values: number[] }>;
}

export class EmfMetrics implements Metrics {
  readonly #pending = new Map<string, Pending>();

  #powertools: PowertoolsMetrics | undefined;

  /**
   * `serviceName` becomes the `service` dimension of every metric (Powertools' default
   * dimension). Powertools is made (and loaded: powertools.ts) by the first flush with
   * something to write, since most invocations count nothing.
   */
  constructor(private readonly options: { serviceName?: string } = {}) {}

  get #metrics(): PowertoolsMetrics {
    this.#powertools ??= new (powertools().Metrics)({ namespace: METRICS_NAMESPACE, ...this.options });
    return this.#powertools;
  }

  count(name: MetricName, dimensions: Dimensions = {}): void {
    this.#record(name, 'Count', 1, dimensions, true);
  }

  seconds(name: MetricName, value: number, dimensions: Dimensions = {}): void {
    this.#record(name, 'Seconds', value, dimensions, false);
  }

  flush(): void {
    for (const { dimensions, values } of this.#pending.values()) {
      const metrics = this.#metrics;
      for (const [key, value] of Object.entries(dimensions)) metrics.addDimension(key, value);
      for (const { name, unit, values: recorded } of values.values()) {
        for (const value of recorded) metrics.addMetric(name, unit, value);
      }
      metrics.publishStoredMetrics();
    }
    this.#pending.clear();
  }

  #record(name: MetricName, unit: Unit, value: number, dimensions: Dimensions, sum: boolean): void {
    const key = JSON.stringify(Object.entries(dimensions).sort());
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = { dimensions, values: new Map() };
      this.#pending.set(key, pending);
    }
    const entry = pending.values.get(name) ?? { name, unit, values: [] };
    if (sum && entry.values.length > 0) entry.values[0] = (entry.values[0] ?? 0) + value;
    else entry.values.push(value);
    pending.values.set(name, entry);
  }
}

/** In a Lambda (or `sam local invoke`), EMF; anywhere else (npm start, scripts), nothing. */
export const metricsFromEnv = (env: NodeJS.ProcessEnv = process.env): Metrics =>
  env.AWS_LAMBDA_FUNCTION_NAME ? new EmfMetrics() : noMetrics;
