/**
 * The storage work the contract asks of a token grant before it issues, given to the peer:
 * ONE conditional UpdateItem on the client's item that authenticates (the condition holds
 * only for the stored secret hash of an active client) and counts the request against a
 * per-minute limit, atomically. The same shape as the project's (shared/store/
 * dynamo-repository.ts countRequest, shared/services/meter.ts): a fixed window on the
 * client item, "continue" when this process last saw the current window, else "open" it;
 * a refused write returns the old item, which tells why.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

export type MeterResult = 'ok' | 'unknown' | 'mismatch' | 'revoked' | 'limited';

const WINDOW_SECONDS = 60;
const clientKey = (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'META' });

export class DynamoLimiter {
  /** The window this process last saw per client: usually the counter is already in it. */
  private readonly lastWindow = new Map<string, number>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async putClient(clientId: string, secretHash: string, rateLimit: number): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...clientKey(clientId), secret_hash: secretHash, status: 'active', rate_limit: rateLimit },
      }),
    );
  }

  async meter(clientId: string, secretHash: string, now = new Date()): Promise<MeterResult> {
    const seconds = Math.floor(now.getTime() / 1000);
    let window = seconds - (seconds % WINDOW_SECONDS);
    let open = this.lastWindow.get(clientId) !== window;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: clientKey(clientId),
            UpdateExpression: open
              ? 'SET rl_window = :window, rl_count = :one, last_used_at = :now'
              : 'SET last_used_at = :now ADD rl_count :one',
            ConditionExpression: `attribute_exists(pk) AND #status = :active AND secret_hash = :hash AND ${
              open ? '(attribute_not_exists(rl_window) OR rl_window < :window)' : 'rl_window = :window AND rl_count < rate_limit'
            }`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':active': 'active',
              ':hash': secretHash,
              ':window': window,
              ':one': 1,
              ':now': now.toISOString(),
            },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        this.lastWindow.set(clientId, window);
        return 'ok';
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // dynalite does not return the item with the failure; DynamoDB does. Either way
        // this read happens only on a refusal, never on the path of a granted token.
        const old = error.Item
          ? unmarshall(error.Item)
          : (await this.db.send(new GetCommand({ TableName: this.tableName, Key: clientKey(clientId) }))).Item;
        if (!old) return 'unknown';
        if (old.secret_hash !== secretHash) return 'mismatch';
        if (old.status !== 'active') return 'revoked';
        const stored = typeof old.rl_window === 'number' ? old.rl_window : null;
        if (stored === window && old.rl_count >= old.rate_limit) return 'limited';
        if (stored !== null && stored > window) window = stored; // another process is a window ahead: join it
        open = !(stored !== null && stored >= window);
      }
    }
    throw new Error(`Rate-limit counter for ${clientId} kept changing under contention`);
  }
}
