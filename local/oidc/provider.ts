/**
 * The local OpenID Connect provider `npm start` serves under /oidc, for organization admins:
 * oidc-provider (certified) with the admins of `create-admin` as its accounts, a sign-in page
 * of our own, and JWT access tokens for the admin API carrying the admin's `email` and `org`,
 * which shared/auth/admin-tokens.ts verifies as it verifies Cognito's when deployed.
 *
 * The console is a first-party public client (authorization code + PKCE): no consent screen.
 * Failed sign-ins are throttled per account, counted before the password hash (SignInThrottle);
 * sign-ins and failures go to the audit log.
 * Sessions, codes and grants live in memory (memory-adapter.ts): a restart signs admins out,
 * which is fine on a laptop.
 */
import './quiet-runtime-warning.js';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import type { AdminIssuerSettings } from '../../shared/auth/admin-tokens.js';
import { type AdminAccount, verifyPassword } from '../../shared/domain/admins.js';
import type { Deps } from '../../shared/runtime.js';
import { recordAudit } from '../../shared/services/audit-log.js';
import { readBody } from '../request-body.js';
import {
  createAdminCommand,
  errorPage,
  loginPage,
  SIGN_OUT_SCRIPT,
  signedOutPage,
  signOutPage,
  signOutQuestion,
} from './login-page.js';
import { memoryAdapter } from './memory-adapter.js';

/** The console's client id: a public client, no secret. */
export const CONSOLE_CLIENT_ID = 'knap-console';
/** The admin API as a resource (RFC 8707), and the audience of its access tokens. */
export const ADMIN_RESOURCE = 'urn:knap:admin-api';
export const ADMIN_AUDIENCE = 'knap-admin-api';
/** Lifetimes: short access tokens, renewed silently while the provider session lasts. */
export const ADMIN_TOKEN_TTL_SECONDS = 15 * 60;
export const SESSION_TTL_SECONDS = 8 * 3600;
/** Failed sign-ins per account before it must wait, and for how long. */
export const SIGN_IN_FAILURES_ALLOWED = 5;
export const SIGN_IN_LOCKOUT_SECONDS = 15 * 60;

export interface LocalIdentityOptions {
  /** `http://127.0.0.1:<port>/oidc`: the issuer, and where the provider is mounted. */
  issuer: string;
  deps: Deps;
  /** Where the console may be sent back after sign-in and sign-out. */
  redirectUris: string[];
  /** The DynamoDB the admin CLI must reach to make the first admin (named in the sign-in page's hint). */
  dynamodbEndpoint?: string;
  /** How a password is checked against its stored hash (tests count the checks); verifyPassword by default. */
  checkPassword?: (password: string, hash: string) => Promise<boolean>;
}

export interface LocalIdentity {
  /** Whether a request path is the provider's. */
  owns(path: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** How the admin functions verify its tokens. */
  settings: AdminIssuerSettings;
}

/** Accounts whose recent failures are kept at most: memory stays bounded whatever addresses are tried. */
const MAX_THROTTLED_ACCOUNTS = 10_000;

interface AccountAttempts {
  /** When each failed check of the lockout window ended (epoch ms). */
  failures: number[];
  /** Password checks under way. */
  checking: number;
}

/**
 * Password checks per account, counted before the hash is computed: a check takes a slot
 * first, synchronously (one event-loop turn, so 30 guesses arriving at once see each other's
 * slots), and at most SIGN_IN_FAILURES_ALLOWED slots are held by checks under way and failures
 * of the last SIGN_IN_LOCKOUT_SECONDS together. A failed check keeps its slot for the window; a
 * successful one gives it back (earlier failures still count: a right password now and then
 * buys a guesser no more tries). Kept in memory, like the sessions: one process serves /oidc.
 */
class SignInThrottle {
  readonly #accounts = new Map<string, AccountAttempts>();
  constructor(private readonly now: () => number) {}

  private attempts(email: string): AccountAttempts | undefined {
    const attempts = this.#accounts.get(email);
    if (!attempts) return undefined;
    const since = this.now() - SIGN_IN_LOCKOUT_SECONDS * 1000;
    attempts.failures = attempts.failures.filter((at) => at > since);
    if (attempts.failures.length === 0 && attempts.checking === 0) {
      this.#accounts.delete(email);
      return undefined;
    }
    return attempts;
  }

  /** Takes a slot for one password check: 0, or the seconds to wait (nothing taken then). */
  take(email: string): number {
    const attempts = this.attempts(email) ?? this.add(email);
    if (attempts.failures.length + attempts.checking < SIGN_IN_FAILURES_ALLOWED) {
      attempts.checking += 1;
      return 0;
    }
    // While only checks under way hold the slots, their failures would start the window now.
    const oldest = attempts.failures[0] ?? this.now();
    return Math.max(1, Math.ceil((oldest + SIGN_IN_LOCKOUT_SECONDS * 1000 - this.now()) / 1000));
  }

  private add(email: string): AccountAttempts {
    if (this.#accounts.size >= MAX_THROTTLED_ACCOUNTS) {
      // Full: first drop what has lapsed; only a flood of fresh failures evicts the oldest idle account.
      for (const known of [...this.#accounts.keys()]) this.attempts(known);
      if (this.#accounts.size >= MAX_THROTTLED_ACCOUNTS) {
        for (const [known, attempts] of this.#accounts) {
          if (attempts.checking > 0) continue;
          this.#accounts.delete(known);
          break;
        }
      }
    }
    const attempts: AccountAttempts = { failures: [], checking: 0 };
    this.#accounts.set(email, attempts);
    return attempts;
  }

  /** The check failed: its slot stays taken for the lockout window. */
  failed(email: string): void {
    const attempts = this.#accounts.get(email) ?? this.add(email);
    attempts.checking = Math.max(0, attempts.checking - 1);
    attempts.failures.push(this.now());
  }

  /** The check succeeded (or never happened): its slot is free again. */
  release(email: string): void {
    const attempts = this.#accounts.get(email);
    if (attempts) attempts.checking = Math.max(0, attempts.checking - 1);
    this.attempts(email);
  }
}

/** What the provider's page hooks write (Koa's context). */
interface PageContext {
  type: string;
  body: string;
  set(field: string, value: string): void;
}

/** The sign-out hook also reads what the request proved: its checked ID token hint, the session. */
interface LogoutContext extends PageContext {
  oidc: {
    entities?: { IdTokenHint?: { payload?: { sub?: string } } };
    session?: { accountId?: string };
  };
}

/** Every page under /oidc: no script, nothing from elsewhere, never in a frame. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";
/** The sign-out step, whose one script is allowed by its hash. */
const SIGN_OUT_POLICY = `${PAGE_POLICY}; script-src 'sha256-${createHash('sha256').update(SIGN_OUT_SCRIPT).digest('base64')}'`;

const html = (response: ServerResponse, status: number, body: string): void => {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': PAGE_POLICY,
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
};

/**
 * What the admin functions and the console are told of this provider (as the stack tells them
 * of Cognito): ADMIN_ISSUER, ADMIN_AUDIENCE, ADMIN_ORG_CLAIM, ADMIN_JWKS_URI, and the console's
 * client id and scope.
 */
export const localAdminEnvironment = (identity: LocalIdentity): Record<string, string> => ({
  ADMIN_ISSUER: identity.settings.issuer,
  ADMIN_AUDIENCE: identity.settings.audience,
  ADMIN_ORG_CLAIM: identity.settings.orgClaim,
  ADMIN_JWKS_URI: identity.settings.jwksUri as string,
  ADMIN_CONSOLE_CLIENT_ID: CONSOLE_CLIENT_ID,
  ADMIN_CONSOLE_SCOPE: 'openid email admin',
});

export const startLocalIdentity = (options: LocalIdentityOptions): LocalIdentity => {
  const { deps } = options;
  const mount = new URL(options.issuer).pathname.replace(/\/$/, '');
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const throttle = new SignInThrottle(() => deps.clock.now().getTime());
  const checkPassword = options.checkPassword ?? verifyPassword;
  // Admins are never deleted: once one is seen, the table is not walked again.
  let adminsExist = false;
  /** The command that makes the first admin while there is none (for the sign-in page), else undefined. */
  const firstAdminHint = async (): Promise<string | undefined> => {
    if (!adminsExist) {
      // A hint, not the sign-in: a failing table leaves it out rather than failing the page.
      adminsExist = await deps.repo.hasAdmins().catch(() => true);
    }
    return adminsExist ? undefined : createAdminCommand(options.dynamodbEndpoint);
  };

  const accountClaims = async (email: string) => {
    const admin = await deps.repo.getAdmin(email);
    return admin ? { sub: admin.email, email: admin.email, org: admin.orgName } : undefined;
  };

  const provider = new Provider(options.issuer, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.redirectUris,
        id_token_signed_response_alg: 'ES256',
      },
    ],
    pkce: { required: () => true },
    // The console is on this origin (a browser still sends Origin with its POSTs): no other.
    clientBasedCORS: (_ctx: unknown, origin: string) => origin === new URL(options.issuer).origin,
    scopes: ['openid', 'email', 'admin'],
    claims: { openid: ['sub'], email: ['email'], admin: ['org'] },
    jwks: { keys: [{ ...key, use: 'sig', alg: 'ES256', kid: randomBytes(8).toString('hex') }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    ttl: {
      AccessToken: ADMIN_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: ADMIN_TOKEN_TTL_SECONDS,
      Interaction: 10 * 60,
      Session: SESSION_TTL_SECONDS,
      Grant: SESSION_TTL_SECONDS,
    },
    features: {
      devInteractions: { enabled: false },
      // The console's "Sign out" ends this session and comes back, with no question in between.
      rpInitiatedLogout: {
        enabled: true,
        // Without a question only for the admin's own console: the request names their own ID
        // token (which the provider has checked). Anything else, a link from another site
        // above all, asks first: a sign-out is not something another page may do for them.
        logoutSource: async (ctx: LogoutContext, form: string) => {
          const hinted = ctx.oidc.entities?.IdTokenHint?.payload?.sub;
          const own = hinted !== undefined && hinted === ctx.oidc.session?.accountId;
          if (own) ctx.set('content-security-policy', SIGN_OUT_POLICY);
          ctx.type = 'html';
          ctx.body = own ? signOutPage(form) : signOutQuestion(form);
        },
        postLogoutSuccessSource: async (ctx: PageContext) => {
          ctx.type = 'html';
          ctx.body = signedOutPage();
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => ADMIN_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'admin',
          audience: ADMIN_AUDIENCE,
          accessTokenTTL: ADMIN_TOKEN_TTL_SECONDS,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
    // Its own error page loads a web font from another origin; ours loads nothing.
    renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = errorPage(out);
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${mount}/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => {
      const claims = await accountClaims(sub);
      return claims ? { accountId: sub, claims: async () => claims } : undefined;
    },
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const claims = await accountClaims(token.accountId);
      return claims ? { email: claims.email, org: claims.org } : undefined;
    },
    // The console is first party: its grant is made here, so no consent prompt is ever shown.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      const clientId = oidc.client?.clientId;
      const accountId = oidc.session?.accountId;
      if (!clientId || !accountId) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
      const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email admin');
      grant.addResourceScope(ADMIN_RESOURCE, 'admin');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();

  const signIn = async (request: IncomingMessage, response: ServerResponse, action: string): Promise<void> => {
    const body = await readBody(request);
    if (body === null) {
      html(response, 413, loginPage(action, 'That sign-in form is too large.'));
      return;
    }
    const form = new URLSearchParams(body.toString('utf8'));
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const password = form.get('password') ?? '';
    // The slot is taken before anything is awaited: concurrent guesses cannot all pass.
    const wait = throttle.take(email);
    if (wait > 0) {
      html(response, 429, loginPage(action, `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minutes.`, email));
      return;
    }
    let admin: AdminAccount | null;
    let valid: boolean;
    try {
      admin = email ? await deps.repo.getAdmin(email) : null;
      // Unknown accounts cost a hash too, so a wrong address and a wrong password take as long.
      valid = await checkPassword(password, admin?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
    } catch (error) {
      throttle.release(email);
      throw error;
    }
    const actor = { name: email, sourceIp: request.socket.remoteAddress ?? null };
    if (!admin || !valid) {
      throttle.failed(email);
      if (admin) await recordAudit(deps, actor, admin.orgName, 'admin.sign_in_failed', { type: 'admin', id: admin.email });
      html(response, 401, loginPage(action, 'Wrong email or password.', email, await firstAdminHint()));
      return;
    }
    throttle.release(email);
    await recordAudit(deps, actor, admin.orgName, 'admin.sign_in', { type: 'admin', id: admin.email });
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: admin.email } },
      { mergeWithLastSubmission: false },
    );
  };

  return {
    settings: {
      issuer: options.issuer,
      audience: ADMIN_AUDIENCE,
      orgClaim: 'org',
      jwksUri: `${options.issuer}/jwks`,
    },
    owns: (path) => path === mount || path.startsWith(`${mount}/`),
    handle: async (request, response) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const interaction = new RegExp(`^${mount}/interaction/([A-Za-z0-9_-]+)(/login)?$`).exec(path);
      if (interaction) {
        const action = `${mount}/interaction/${interaction[1]}/login`;
        try {
          const details = await provider.interactionDetails(request, response);
          if (details.uid !== interaction[1]) throw new Error('Interaction mismatch');
          if (interaction[2] && request.method === 'POST') await signIn(request, response, action);
          else html(response, 200, loginPage(action, undefined, '', await firstAdminHint()));
        } catch {
          html(response, 400, loginPage(action, 'This sign-in has expired. Go back to the console and sign in again.'));
        }
        return;
      }
      // oidc-provider routes relative to where it is mounted and builds its URLs from the
      // original one, as Express's app.use would hand them over.
      Object.assign(request, { originalUrl: request.url });
      response.setHeader('content-security-policy', PAGE_POLICY);
      response.setHeader('x-content-type-options', 'nosniff');
      request.url = (request.url ?? '/').slice(mount.length) || '/';
      callback(request, response);
    },
  };
};

/** A hash no password matches, verified when the account does not exist. */
const UNKNOWN_ACCOUNT_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
