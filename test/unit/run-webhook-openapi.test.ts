/** The OpenAPI document's `webhooks` entry for the knap.run message (issue 23, "Also"). */
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { openApiDocument } from '../../shared/openapi/document.js';
import { RunMessageSchema } from '../../shared/webhooks/message.js';

type Parameter = { name: string; in: string; required: boolean; example: string; description: string };
const document = openApiDocument();
const operation = (document.webhooks as Record<string, { post: Record<string, unknown> }>)['knap.run']?.post as {
  parameters: Parameter[];
  requestBody: { content: Record<string, { schema: { $ref: string }; examples: Record<string, { value: unknown }> }> };
  responses: Record<string, unknown>;
};

test('knap.run is a webhook: a POST of a RunMessage with the three Standard Webhooks headers', () => {
  expect(document.openapi).toBe('3.1.0');
  expect(operation.parameters.map(({ name, in: where, required }) => [name, where, required])).toEqual([
    ['webhook-id', 'header', true],
    ['webhook-timestamp', 'header', true],
    ['webhook-signature', 'header', true],
  ]);
  expect(operation.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/RunMessage' });
  expect(Object.keys(operation.responses)).toContain('2XX');
});

test('the example is a valid message, and its headers are its id, time and signature', () => {
  const examples = operation.requestBody.content['application/json']?.examples ?? {};
  const [example] = Object.values(examples).map((entry) => entry.value);
  const message = v.parse(RunMessageSchema, example);
  expect(message.type).toBe('knap.run');
  expect(message.data.run.run_id).toMatch(/^run_[A-Za-z0-9_-]{32}$/);
  expect(message.data.run.meeting?.meeting_id).toBe(message.data.run.meeting_id);
  const parameter = (name: string) => operation.parameters.find((entry) => entry.name === name) as Parameter;
  const header = (name: string) => parameter(name).example;
  expect(header('webhook-id')).toBe(message.data.run.run_id);
  const sentAt = new Date(Number(header('webhook-timestamp')) * 1000);
  expect(Math.abs(sentAt.getTime() - Date.parse(message.timestamp))).toBeLessThan(1000);
  // The secret the description names signs the example body, as sent, into the example signature.
  const secret = /whsec_[A-Za-z0-9+/=]+/.exec(parameter('webhook-signature').description)?.[0];
  expect(secret).toBeDefined();
  const signature = new Webhook(secret as string).sign(header('webhook-id'), sentAt, JSON.stringify(example));
  expect(signature).toBe(header('webhook-signature'));
});
