/**
 * A stand-in for SQS on a local port that speaks its JSON protocol (AWS JSON 1.0) for
 * SendMessage, answering the MD5 of the body it stored as SQS does (the sender checks it); it
 * remembers what was sent. `storedBody` makes it say it stored something else.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  target: string;
  authorization: string;
  input: Record<string, unknown>;
}

export class SqsStandIn {
  readonly sent: SentMessage[] = [];
  /** What the stand-in says it stored, when not what it was sent. */
  storedBody: string | undefined;
  url = '';
  private server: Server | undefined;

  /** Listens on a free port of 127.0.0.1; the queue's URL names `queueName`. */
  async listen(queueName: string): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const input = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        this.sent.push({
          target: String(request.headers['x-amz-target']),
          authorization: String(request.headers.authorization),
          input,
        });
        const md5 = createHash('md5')
          .update(this.storedBody ?? String(input.MessageBody))
          .digest('hex');
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify({ MessageId: `m-${this.sent.length}`, MD5OfMessageBody: md5 }));
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/123456789012/${queueName}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.close();
    await once(this.server, 'close');
  }
}
