import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  type CfnStage,
  CorsHttpMethod,
  type CorsPreflightOptions,
  DomainName,
  HttpApi,
  HttpMethod,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import {
  FUNCTIONS,
  type FunctionDefinition,
  type FunctionId,
  greedyRouteKey,
  type RouteDefinition,
} from '../functions/routes.js';
import { DEFAULT_ADMIN_THROTTLE, DEFAULT_ROUTE_THROTTLES, type KnapSettings, type Throttle } from './config.js';
import { isAdminRoute } from './functions.js';
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
  /** The HTTP functions, by id: their greedy prefixes (functions/routes.ts FUNCTIONS) route to them too. */
  readonly byFunction: ReadonlyMap<FunctionId, KnapFunction>;
  /** Defaults to the function table in functions/routes.ts. */
  readonly functionTable?: readonly FunctionDefinition[];
}

/**
 * The throttle of each route: its own setting, else (an admin route) the admin throttle, else
 * the stage's. A built-in default (DEFAULT_ROUTE_THROTTLES, DEFAULT_ADMIN_THROTTLE) never
 * exceeds the stage's: lowering the stage lowers them too.
 */
export const routeThrottleOf = (settings: KnapSettings, route: Pick<RouteDefinition, 'id' | 'path'>): Throttle => {
  const stage = { rateLimit: settings.throttleRateLimit, burstLimit: settings.throttleBurstLimit };
  const own = settings.routeThrottles[route.id] ?? (isAdminRoute(route) ? settings.adminThrottle : undefined);
  if (!own) return stage;
  if (own !== DEFAULT_ROUTE_THROTTLES[route.id] && own !== DEFAULT_ADMIN_THROTTLE) return own;
  return { rateLimit: Math.min(own.rateLimit, stage.rateLimit), burstLimit: Math.min(own.burstLimit, stage.burstLimit) };
};

/** The throttle of a greedy route (`ANY /api/admin/{proxy+}`): the admin throttle under /api/admin, else the stage's. */
export const greedyThrottleOf = (settings: KnapSettings, prefix: string): Throttle =>
  routeThrottleOf(settings, { id: greedyRouteKey(prefix), path: `${prefix}/` });

/**
 * The HTTP API, named after the stack: one route per route-table entry, each to the `live`
 * alias of its function (payload 2.0), and each function's greedy prefixes (`ANY
 * <prefix>/{proxy+}`) to it too, so that a path of its area that no route serves is answered
 * by the function (404 or 405 with a `{"detail"}`). One integration and one invoke permission
 * per function, not per route: a route costs one API Gateway route and nothing else. A
 * throttle on every route, JSON access logs, CORS only when origins are given; a custom domain
 * when one is set, and then no execute-api endpoint at all.
 */
export class KnapApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The base URL of the API, without a trailing slash: append `/api/oauth/token`. */
  readonly url: string;
  /** One route per route-table entry. */
  readonly routes: readonly HttpRoute[];
  /** The custom domain, when `domainName` is set. */
  readonly domainName?: DomainName;

  constructor(scope: Construct, id: string, props: KnapApiProps) {
    super(scope, id);
    const { settings } = props;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: Stack.of(this).stackName,
      description: 'Knap API: OAuth 2.0 token endpoint and Knap automations',
      createDefaultStage: false,
      corsPreflight: corsOptions(settings.corsAllowedOrigins),
      // With a domain, the one way in is the domain: no second host name that skips its TLS policy or its mapping.
      disableExecuteApiEndpoint: settings.domainName !== null,
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

    const integrations = new Map<KnapFunction, HttpLambdaIntegration>();
    // The alias, not the function: API Gateway calls whatever version CodeDeploy has made live.
    // One invoke permission for the whole API, not one per route (scopePermissionToRoute).
    const integrationOf = (fn: KnapFunction): HttpLambdaIntegration => {
      let integration = integrations.get(fn);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${fn.node.id}Integration`, fn.live, { scopePermissionToRoute: false });
        integrations.set(fn, integration);
      }
      return integration;
    };
    const greedy = (props.functionTable ?? FUNCTIONS).flatMap((definition) => {
      const fn = props.byFunction.get(definition.id);
      return fn ? (definition.greedy ?? []).map((prefix) => ({ prefix, fn })) : [];
    });
    this.routes = [
      ...[...props.functions].flatMap(([route, fn]) =>
        this.httpApi.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration: integrationOf(fn) }),
      ),
      ...greedy.flatMap(({ prefix, fn }) =>
        this.httpApi.addRoutes({ path: `${prefix}/{proxy+}`, methods: [HttpMethod.ANY], integration: integrationOf(fn) }),
      ),
    ];

    // A throttle on every route, by route key; the stage's DefaultRouteSettings cover any other.
    // A free-form JSON property: CloudFormation's own (Pascal case) names, as written.
    const routeSetting = (throttle: Throttle) => ({
      ThrottlingRateLimit: throttle.rateLimit,
      ThrottlingBurstLimit: throttle.burstLimit,
    });
    const cfnStage = this.stage.node.defaultChild as CfnStage;
    cfnStage.routeSettings = Object.fromEntries([
      ...[...props.functions.keys()].map((route) => [
        `${route.method} ${route.path}`,
        routeSetting(routeThrottleOf(settings, route)),
      ]),
      ...greedy.map(({ prefix }) => [greedyRouteKey(prefix), routeSetting(greedyThrottleOf(settings, prefix))]),
    ]);
    // Route settings name route keys, which must exist before the stage is updated.
    for (const route of this.routes) this.stage.node.addDependency(route);

    if (settings.domainName) {
      this.domainName = this.customDomain(settings, settings.domainName);
      this.url = `https://${settings.domainName}`;
    } else {
      this.url =
        settings.stageName === '$default' ? this.httpApi.apiEndpoint : `${this.httpApi.apiEndpoint}/${settings.stageName}`;
    }
  }

  /** The domain, its certificate (given, or DNS-validated in the hosted zone), the API mapping and the alias records. */
  private customDomain(settings: KnapSettings, name: string): DomainName {
    const zone =
      settings.hostedZoneId && settings.hostedZoneName
        ? HostedZone.fromHostedZoneAttributes(this, 'Zone', {
            hostedZoneId: settings.hostedZoneId,
            zoneName: settings.hostedZoneName,
          })
        : undefined;
    const certificate: ICertificate = settings.certificateArn
      ? Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn)
      : new Certificate(this, 'Certificate', { domainName: name, validation: CertificateValidation.fromDns(zone) });
    const domain = new DomainName(this, 'DomainName', {
      domainName: name,
      certificate,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    // The whole API at the root of the domain, whatever the stage is called.
    const mapping = new ApiMapping(this, 'Mapping', { api: this.httpApi, domainName: domain, stage: this.stage });
    // The stage is named by a literal (`$default`), which makes no dependency by itself.
    mapping.node.addDependency(this.stage);
    if (zone) {
      const target = RecordTarget.fromAlias(
        new ApiGatewayv2DomainProperties(domain.regionalDomainName, domain.regionalHostedZoneId),
      );
      new ARecord(this, 'AliasRecord', { zone, recordName: name, target });
    }
    return domain;
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
          CorsHttpMethod.PUT,
          CorsHttpMethod.PATCH,
          CorsHttpMethod.DELETE,
          CorsHttpMethod.OPTIONS,
        ],
        allowHeaders: ['authorization', 'content-type', 'if-match', 'idempotency-key'],
        exposeHeaders: EXPOSED_HEADERS,
        maxAge: Duration.hours(1),
      };
