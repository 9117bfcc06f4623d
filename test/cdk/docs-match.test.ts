/**
 * What docs/deploy.md and docs/runbook.md say about the deployed template, checked against the
 * synthesized templates instead of trusted: the number of functions, the alarms and what they
 * cost a month, the API's routes, and the outputs of each stack. Change the stacks and this
 * fails until the docs say so too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_STACK_NAME, dataStackNameFor } from '../../lib/config.js';
import { functionLogicalId } from '../../lib/functions.js';
import { SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

/** AWS list prices (us-east-1) the runbook states: a standard-resolution alarm, per metric it reads, and a dashboard. */
const ALARM_METRIC_MONTH = 0.1;
const DASHBOARD_MONTH = 3;

// biome-ignore lint/suspicious/noExplicitAny: template JSON has no static type
type Resource = { Type: string; Properties?: Record<string, any> };
interface CfnTemplate {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, unknown>;
}

/** The doc's text with every run of white space made one space: sentences wrap anywhere. */
const docText = (name: string): string =>
  readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');

/** The lines of a doc from a heading to the next heading of its level or higher. */
const section = (name: string, heading: string): string[] => {
  const lines = readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`docs/${name} has no heading "${heading}"`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
};

/** The cells of a Markdown table's rows (header and separator left out). */
const tableRows = (lines: string[]): string[][] =>
  lines
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );

/** Every match of a pattern in a text; fails when there is none, so a reworded doc cannot pass unread. */
const matchesIn = (text: string, pattern: RegExp, what: string): RegExpMatchArray[] => {
  const found = [...text.matchAll(new RegExp(pattern, 'g'))];
  if (found.length === 0) throw new Error(`no ${what} found (${pattern})`);
  return found;
};

const numberIn = (cell: string | undefined): number => Number((cell ?? '').replace(/[*,]/g, ''));
const dollarsIn = (cell: string | undefined): number => {
  const found = (cell ?? '').match(/\$(\d+\.\d{2})/);
  if (!found) throw new Error(`no amount in "${cell}"`);
  return Number(found[1]);
};
const cents = (dollars: number): number => Math.round(dollars * 100);

interface AlarmFacts {
  /** The namespace of the metric it reads (the first one, for a metric math alarm). */
  namespace: string;
  /** How many metrics it reads: what it is billed by. */
  metrics: number;
}

const alarmFacts = (alarm: Resource): AlarmFacts => {
  const stats = (alarm.Properties?.Metrics ?? []).filter((metric: { MetricStat?: unknown }) => metric.MetricStat);
  return stats.length > 0
    ? { namespace: stats[0].MetricStat.Metric.Namespace, metrics: stats.length }
    : { namespace: alarm.Properties?.Namespace, metrics: 1 };
};

const ofType = (template: CfnTemplate, type: string): [string, Resource][] =>
  Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

let api: CfnTemplate;
let data: CfnTemplate;
beforeAll(async () => {
  const { outdir } = await synthesized({});
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const templateOf = (stackName: string): CfnTemplate => {
    const file = manifest.artifacts[stackName]?.properties?.templateFile;
    if (!file) throw new Error(`the assembly has no stack ${stackName}`);
    return JSON.parse(readFileSync(join(outdir, file), 'utf8')) as CfnTemplate;
  };
  api = templateOf(DEFAULT_STACK_NAME);
  data = templateOf(dataStackNameFor(DEFAULT_STACK_NAME));
}, SYNTH_TIMEOUT_MS);

/** The functions the app deploys: each has a `live` alias (CDK's own helper functions have none). */
const functions = (): string[] =>
  ofType(api, 'AWS::Lambda::Alias')
    .filter(([, alias]) => alias.Properties?.Name === 'live')
    .map(([, alias]) => alias.Properties?.FunctionName.Ref as string);

/** The functions an API integration calls (through their alias). */
const httpFunctions = (): string[] => {
  const aliases = new Map(ofType(api, 'AWS::Lambda::Alias').map(([id, alias]) => [id, alias.Properties?.FunctionName.Ref]));
  return [
    ...new Set(
      ofType(api, 'AWS::ApiGatewayV2::Integration').map(([, integration]) =>
        aliases.get(integration.Properties?.IntegrationUri.Ref),
      ),
    ),
  ];
};

const alarms = (): AlarmFacts[] => ofType(api, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarmFacts(alarm));

/** The runbook's alarm groups, each with the alarms it counts; the last takes whatever the others do not. */
const ALARM_GROUPS: { label: RegExp; counts: (alarm: AlarmFacts) => boolean }[] = [
  { label: /^function alarms \(3 for each of (\d+) functions\)$/, counts: (alarm) => alarm.namespace === 'AWS/Lambda' },
  {
    label: /^API 5xx rate \(a metric math alarm on (\d+) metrics\)$/,
    counts: (alarm) => alarm.namespace === 'AWS/ApiGateway' && alarm.metrics > 1,
  },
  {
    label: /^DynamoDB throttles and system errors \((\d+) operations each\)$/,
    counts: (alarm) => alarm.namespace === 'AWS/DynamoDB',
  },
];

describe('docs/runbook.md', () => {
  const costRows = () => tableRows(section('runbook.md', '## What the monitoring costs at rest'));
  const rowLabelled = (label: RegExp): string[] => {
    const row = costRows().find(([first]) => label.test((first ?? '').replace(/\*/g, '')));
    if (!row) throw new Error(`the runbook's cost table has no row ${label}`);
    return row;
  };

  test('the number of alarms and of functions, and the functions by name', () => {
    const text = docText('runbook.md');
    expect(matchesIn(text, /`KnapApi` has (\d+) alarms/, 'alarm count').map((found) => Number(found[1]))).toEqual([
      alarms().length,
    ]);
    const [listed] = matchesIn(text, /There are (\d+) functions: (.+?) are the jobs/, 'function list');
    expect(Number(listed?.[1])).toBe(functions().length);
    const named = [...(listed?.[2] ?? '').matchAll(/`([a-z-]+)`/g)].map((found) => `${functionLogicalId(found[1] as string)}`);
    expect(named.sort()).toEqual(functions().sort());
  });

  test('the cost table: each group of alarms as the template has it, at $0.10 per metric', () => {
    expect(docText('runbook.md')).toContain('$0.10 a month per metric it reads');
    const all = alarms();
    const rest = all.filter((alarm) => !ALARM_GROUPS.some((group) => group.counts(alarm)));
    const groups = [
      ...ALARM_GROUPS.map((group) => ({ ...group, members: all.filter(group.counts) })),
      { label: /^API latency, dead-letter and dispatcher-lag alarms$/, members: rest },
    ];
    for (const { label, members } of groups) {
      const [first, count, metrics, dollars] = rowLabelled(label);
      expect(members.length).toBeGreaterThan(0);
      expect({ row: first, alarms: numberIn(count), metrics: numberIn(metrics) }).toEqual({
        row: first,
        alarms: members.length,
        metrics: members.reduce((sum, alarm) => sum + alarm.metrics, 0),
      });
      expect(cents(dollarsIn(dollars))).toBe(cents(numberIn(metrics) * ALARM_METRIC_MONTH));
    }
    // The numbers inside the labels.
    const [functionRow] = rowLabelled(ALARM_GROUPS[0]!.label);
    expect(Number(functionRow?.replace(/\*/g, '').match(ALARM_GROUPS[0]!.label)?.[1])).toBe(functions().length);
    const [mathRow] = rowLabelled(ALARM_GROUPS[1]!.label);
    expect(Number(mathRow?.match(ALARM_GROUPS[1]!.label)?.[1])).toBe(all.find(ALARM_GROUPS[1]!.counts)?.metrics);
    const [tableRow] = rowLabelled(ALARM_GROUPS[2]!.label);
    const perTableAlarm = all.filter(ALARM_GROUPS[2]!.counts).map((alarm) => alarm.metrics);
    expect(new Set(perTableAlarm)).toEqual(new Set([Number(tableRow?.match(ALARM_GROUPS[2]!.label)?.[1])]));
  });

  test('the totals: all alarms, the dashboard, and the monthly sum', () => {
    const all = alarms();
    const metrics = all.reduce((sum, alarm) => sum + alarm.metrics, 0);
    const [, count, metricCount, alarmDollars] = rowLabelled(/^all alarms$/);
    expect({ alarms: numberIn(count), metrics: numberIn(metricCount) }).toEqual({ alarms: all.length, metrics });
    expect(cents(dollarsIn(alarmDollars))).toBe(cents(metrics * ALARM_METRIC_MONTH));
    const dashboards = ofType(api, 'AWS::CloudWatch::Dashboard').length;
    const [, , , dashboardDollars] = rowLabelled(/^dashboard$/);
    expect(cents(dollarsIn(dashboardDollars))).toBe(cents(dashboards * DASHBOARD_MONTH));
    const [, , , total] = rowLabelled(/^total$/);
    expect(cents(dollarsIn(total))).toBe(cents(metrics * ALARM_METRIC_MONTH + dashboards * DASHBOARD_MONTH));
  });
});

describe('docs/deploy.md', () => {
  test('every count of functions: all of them, those serving the API, the jobs', () => {
    const text = docText('deploy.md');
    for (const found of matchesIn(text, /(\d+) Lambda functions/, 'function count')) {
      expect(Number(found[1])).toBe(functions().length);
    }
    const [split] = matchesIn(text, /(\d+) Lambda functions \((\d+) serving the API, (\d+) jobs\)/, 'function split');
    expect(split?.slice(1).map(Number)).toEqual([
      functions().length,
      httpFunctions().length,
      functions().length - httpFunctions().length,
    ]);
  });

  test('the alarms, group by group, and their monthly cost with the dashboard', () => {
    const text = docText('deploy.md');
    const [stated] = matchesIn(
      text,
      /`KnapApi` has (\d+) alarms: (\d+) for each of the (\d+) functions \([^)]*\), (\d+) on the API \([^)]*\), (\d+) on the table \([^)]*\), (\d+) on the delivery dead-letter queue and (\d+) on the dispatcher's lag/,
      'alarm breakdown',
    );
    const all = alarms();
    const inNamespace = (namespace: string) => all.filter((alarm) => alarm.namespace === namespace).length;
    expect(stated?.slice(1).map(Number)).toEqual([
      all.length,
      inNamespace('AWS/Lambda') / functions().length,
      functions().length,
      inNamespace('AWS/ApiGateway'),
      inNamespace('AWS/DynamoDB'),
      inNamespace('AWS/SQS'),
      inNamespace('KnapApi'),
    ]);
    const metrics = all.reduce((sum, alarm) => sum + alarm.metrics, 0);
    const dashboards = ofType(api, 'AWS::CloudWatch::Dashboard').length;
    const [cost] = matchesIn(text, /about \$(\d+\.\d{2}) a month of alarms and dashboard/, 'monitoring cost');
    expect(cents(Number(cost?.[1]))).toBe(cents(metrics * ALARM_METRIC_MONTH + dashboards * DASHBOARD_MONTH));
  });

  test('the routes: one greedy route per area, and the admin routes the admin throttle covers', () => {
    const routeKeys = ofType(api, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties?.RouteKey as string);
    const text = docText('deploy.md');
    const [areas] = matchesIn(text, /one greedy `ANY <prefix>\/\{proxy\+\}` route per area \(([^)]*)\)/, 'greedy prefixes');
    const prefixes = [...(areas?.[1] ?? '').matchAll(/`([^`]+)`/g)].map((found) => `ANY ${found[1]}/{proxy+}`);
    expect(prefixes.sort()).toEqual(routeKeys.filter((key) => key.endsWith('/{proxy+}')).sort());
    const [admin] = matchesIn(text, /the (\d+) `\/api\/admin\/\.\.\.` routes/, 'admin route count');
    expect(Number(admin?.[1])).toBe(routeKeys.filter((key) => / \/api\/admin\//.test(key) && !key.endsWith('{proxy+}')).length);
  });

  test("each stack's outputs, as the outputs table lists them", () => {
    const rows = tableRows(section('deploy.md', '### Outputs'));
    const listed = (stack: string): string[] =>
      rows
        .filter(([, of]) => of === `\`${stack}\``)
        .map(([name]) => (name ?? '').replace(/`/g, ''))
        .filter((name) => name !== '<Function>FunctionName')
        .sort();
    const functionOutput = /^[A-Z][A-Za-z]*FunctionName$/;
    // Outputs KnapApi reads from KnapData (Fn::GetStackOutput): named by CDK, mentioned as `PublishOutput…`.
    const forPeople = (template: CfnTemplate): string[] =>
      Object.keys(template.Outputs ?? {})
        .filter((name) => !name.startsWith('PublishOutput') && !functionOutput.test(name))
        .sort();
    expect(listed(dataStackNameFor(DEFAULT_STACK_NAME))).toEqual(forPeople(data));
    expect(listed(DEFAULT_STACK_NAME)).toEqual(forPeople(api));
    expect(Object.keys(api.Outputs ?? {}).some((name) => name.startsWith('PublishOutput'))).toBe(false);
    if (Object.keys(data.Outputs ?? {}).some((name) => name.startsWith('PublishOutput'))) {
      expect(docText('deploy.md')).toContain('`PublishOutput…`');
    }

    const functionRow = rows.find(([name]) => name === '`<Function>FunctionName`');
    expect(functionRow?.[1]).toBe(`\`${DEFAULT_STACK_NAME}\``);
    const functionOutputs = Object.keys(api.Outputs ?? {}).filter((name) => functionOutput.test(name));
    expect(functionOutputs.sort()).toEqual(
      functions()
        .map((fn) => `${fn}Name`)
        .sort(),
    );
    expect(Number(functionRow?.[3]?.match(/\((\d+) outputs\)/)?.[1])).toBe(functionOutputs.length);
    const example = functionRow?.[2]?.match(/^`(\w+)`/)?.[1];
    expect(functionOutputs).toContain(example);
  });
});
