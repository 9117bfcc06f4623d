/** What the server tells the page (a JSON block in index.html, filled by the console function). */
export interface ConsoleConfig {
  /** The OpenID Connect issuer admins sign in with. */
  issuer: string;
  clientId: string;
  scope: string;
  /** The access token's claim that names the organization. */
  orgClaim: string;
  /** Where signing out ends the provider's session when its discovery names none (Cognito's /logout). */
  signOutUrl?: string;
}

export const readConfig = (): ConsoleConfig => {
  const element = document.getElementById('knap-console-config');
  return JSON.parse(element?.textContent ?? '{}') as ConsoleConfig;
};
