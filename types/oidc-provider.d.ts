/** The little of oidc-provider 9.13 (untyped JavaScript) that the benchmark's peer and the local identity provider use. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextWithOIDC {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    set(field: string, value: string): void;
    ip?: string;
    oidc: {
      params?: Record<string, unknown>;
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
  }

  export class Grant {
    constructor(properties: { clientId?: string; accountId?: string });
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: unknown;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Configuration {
    adapter?: new (name: string) => Adapter;
    clients?: Record<string, unknown>[];
    features?: Record<string, { enabled: boolean; [option: string]: unknown }>;
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
    extraTokenClaims?: (
      ctx: KoaContextWithOIDC,
      token: { kind: string; accountId?: string },
    ) => Promise<Record<string, unknown> | undefined>;
    [key: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: typeof Grant;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export namespace errors {
    class OIDCProviderError extends Error {
      constructor(status: number, message: string, options?: { detail?: string } | string);
      error_description?: string;
    }
    class InvalidClientAuth extends OIDCProviderError {
      constructor(detail?: string);
    }
  }
}
