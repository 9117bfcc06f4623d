/**
 * Sign-in with oidc-client-ts: authorization code + PKCE, tokens kept in memory only (never in
 * localStorage or sessionStorage). A reload signs the admin in again silently with a top-level
 * redirect (prompt=none) against the provider's session; sessionStorage keeps only the flag
 * that asks for it and the PKCE state of a redirect under way.
 */
import { InMemoryWebStorage, type User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { ConsoleConfig } from './config.js';

const SIGNED_IN = 'knap-console:signed-in';

export interface Session {
  user: User;
  email: string;
  orgName: string;
}

const claimsOf = (token: string): Record<string, unknown> => {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export class Auth {
  readonly manager: UserManager;
  private user: User | null = null;

  constructor(private readonly config: ConsoleConfig) {
    const home = `${location.origin}/console`;
    this.manager = new UserManager({
      authority: config.issuer,
      client_id: config.clientId,
      redirect_uri: home,
      post_logout_redirect_uri: home,
      response_type: 'code',
      scope: config.scope,
      userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
      stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
      automaticSilentRenew: false,
      monitorSession: false,
      loadUserInfo: false,
    });
  }

  /**
   * On page load: finishes a sign-in coming back from the provider (then takes the code out of
   * the address bar), or starts the silent one a reload asks for. Null: signed out.
   */
  async start(): Promise<Session | null | 'redirecting'> {
    const params = new URLSearchParams(location.search);
    if (params.has('state') && (params.has('code') || params.has('error'))) {
      try {
        this.user = await this.manager.signinRedirectCallback();
        sessionStorage.setItem(SIGNED_IN, '1');
        const hash = typeof this.user.state === 'string' ? this.user.state : '';
        history.replaceState(null, '', `/console${hash}`);
        return this.session();
      } catch {
        sessionStorage.removeItem(SIGNED_IN);
        history.replaceState(null, '', '/console');
        return null;
      }
    }
    if (sessionStorage.getItem(SIGNED_IN)) {
      await this.signIn(true);
      return 'redirecting';
    }
    return null;
  }

  session(): Session | null {
    if (!this.user) return null;
    const claims = claimsOf(this.user.access_token);
    const org = claims[this.config.orgClaim];
    return {
      user: this.user,
      email: String(claims.email ?? claims.username ?? this.user.profile.email ?? this.user.profile.sub),
      orgName: String(Array.isArray(org) ? org[0] : (org ?? '')),
    };
  }

  /** The access token, or null once it has expired (the caller signs in again). */
  accessToken(): string | null {
    return this.user && !this.user.expired ? this.user.access_token : null;
  }

  /** To the provider; `silent`: no page is shown while its session lasts (prompt=none). */
  async signIn(silent = false): Promise<void> {
    await this.manager.signinRedirect({ state: location.hash, ...(silent ? { prompt: 'none' } : {}) });
  }

  /** Ends the provider's session too, and comes back signed out, with no question asked. */
  async signOut(): Promise<void> {
    sessionStorage.removeItem(SIGNED_IN);
    const idToken = this.user?.id_token;
    this.user = null;
    await this.manager.removeUser();
    if (this.config.signOutUrl) {
      location.assign(this.config.signOutUrl);
      return;
    }
    await this.manager.signoutRedirect({ id_token_hint: idToken });
  }
}
