import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  type CorsPreflightOptions,
  HttpApi,
  HttpMethod,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes.js';
import type { KnapSettings } from './config.js';
import type { KnapFunction } from './knap-function.js';

/** One JSON line per request; no headers, so no credentials, ever reach these logs. */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
  userAgent: '$context.identity.userAgent',
};

/** What browsers may see of our responses when CORS is on. */
const EXPOSED_HEADERS = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'www-authenticate',
  'etag',
  'idempotent-replayed',
];

export interface KnapApiProps {
  readonly settings: KnapSettings;
  /** The function of each route, in route-table order. */
  readonly functions: ReadonlyMap<RouteDefinition, KnapFunction>;
}

/**
 * The HTTP API: one route per route-table entry, each to its own Lambda (payload 2.0);
 * stage-wide throttling, JSON access logs, and CORS only when origins are given.
 */
export class KnapApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The base URL of the API, without a trailing slash: append `/api/oauth/token`. */
  readonly url: string;
  /** One route per route-table entry. */
  readonly routes: readonly HttpRoute[];

  constructor(scope: Construct, id: string, props: KnapApiProps) {
    super(scope, id);
    const { settings } = props;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Knap API: OAuth 2.0 token endpoint and Knap automations',
      createDefaultStage: false,
      corsPreflight: corsOptions(settings.corsAllowedOrigins),
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.httpApi,
      stageName: settings.stageName,
      autoDeploy: true,
      // Edge limits over all clients together; per-client limits are the app's (RateLimit-* headers).
      throttle: { rateLimit: settings.throttleRateLimit, burstLimit: settings.throttleBurstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    this.url = settings.stageName === '$default' ? this.httpApi.apiEndpoint : `${this.httpApi.apiEndpoint}/${settings.stageName}`;

    this.routes = [...props.functions].flatMap(([route, fn]) =>
      this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${fn.node.id}Integration`, fn),
      }),
    );
  }
}

const corsOptions = (origins: readonly string[]): CorsPreflightOptions | undefined =>
  origins.length === 0
    ? undefined
    : {
        allowOrigins: [...origins],
        allowMethods: [
          CorsHttpMethod.GET,
          CorsHttpMethod.POST,
          CorsHttpMethod.PATCH,
          CorsHttpMethod.DELETE,
          CorsHttpMethod.OPTIONS,
        ],
        allowHeaders: ['authorization', 'content-type', 'if-match', 'idempotency-key'],
        exposeHeaders: EXPOSED_HEADERS,
        maxAge: Duration.hours(1),
      };
