/**
 * Signing in to the local OpenID Connect provider as a browser would: authorization code +
 * PKCE through the provider's own sign-in page, cookies kept per browser.
 */
import { createHash, randomBytes } from 'node:crypto';
import { CONSOLE_CLIENT_ID } from '../../local/oidc/provider.js';

/** A browser's cookies for one origin. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair as string).split('=');
      this.cookies.set(name as string, value.join('='));
    }
    return response;
  }
  postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Up to the sign-in page: its status, its HTML and where its form posts. */
export const openSignInPage = async (browser: Browser, redirectUri: string, challenge: string) => {
  const authorize = await browser.go(
    `/oidc/auth?${new URLSearchParams({
      client_id: CONSOLE_CLIENT_ID,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email admin',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'state-1',
    })}`,
  );
  if (authorize.status !== 303) throw new Error(`authorize answered ${authorize.status}`);
  const page = await browser.go(authorize.headers.get('location') as string);
  const html = await page.text();
  return { status: page.status, html, action: /action="([^"]+)"/.exec(html)?.[1] as string };
};

/** `tokens` when signed in; else the refusing page's status and HTML. */
export interface SignInResult {
  status: number;
  tokens?: { access_token: string; expires_in: number; id_token: string };
  page?: string;
}

/** The whole flow; a refused sign-in gives the page's status and HTML. */
export const signIn = async (
  base: string,
  redirectUri: string,
  email: string,
  password: string,
  browser = new Browser(base),
): Promise<SignInResult> => {
  const { verifier, challenge } = pkce();
  const { action } = await openSignInPage(browser, redirectUri, challenge);
  const submitted = await browser.postForm(action, { email, password });
  if (submitted.status !== 303) return { status: submitted.status, page: await submitted.text() };
  const resumed = await browser.go(submitted.headers.get('location') as string);
  const callback = new URL(resumed.headers.get('location') as string);
  if (`${callback.origin}${callback.pathname}` !== redirectUri) throw new Error(`redirected to ${callback.href}`);
  if (callback.searchParams.get('state') !== 'state-1') throw new Error('state lost');
  const token = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') as string,
      redirect_uri: redirectUri,
      client_id: CONSOLE_CLIENT_ID,
      code_verifier: verifier,
    }).toString(),
  });
  if (token.status !== 200) throw new Error(`token endpoint answered ${token.status}: ${await token.text()}`);
  return { status: 200, tokens: (await token.json()) as { access_token: string; expires_in: number; id_token: string } };
};
