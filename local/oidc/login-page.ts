/** The local identity provider's sign-in page: plain HTML and a little CSS, no script. */
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const page = (title: string, content: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Knap admin</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; display: grid; min-height: 100vh; place-items: center; }
  main { box-sizing: border-box; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgb(0 0 0 / 12%); width: min(22rem, 92vw); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #b8bfcc; border-radius: 4px; }
  button { margin-top: 1.25rem; width: 100%; padding: .6rem; font: inherit; font-weight: 600; color: #fff; background: #2454d6; border: 0; border-radius: 4px; cursor: pointer; }
  button:focus-visible, input:focus-visible { outline: 3px solid #8aa8ff; outline-offset: 1px; }
  .problem { color: #a31919; background: #fdecec; padding: .5rem .75rem; border-radius: 4px; }
  .setup { background: #eef3ff; padding: .5rem .75rem; border-radius: 4px; }
  .setup p { margin: 0 0 .5rem; }
  .setup code { display: block; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; background: #fff; padding: .5rem; border-radius: 4px; }
</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;

/**
 * How to make the first admin under `npm start`, as it prints it at start and the sign-in page
 * says it while there is none; with the embedded DynamoDB's endpoint, which the CLI must reach.
 */
export const createAdminCommand = (dynamodbEndpoint?: string): string =>
  `${dynamodbEndpoint ? `DYNAMODB_ENDPOINT=${dynamodbEndpoint} ` : ''}npm run -s admin -- create-admin --org acme --email you@acme.example`;

/** Said above the form while no admin exists: nobody can sign in until one is made. */
const noAdminYet = (command: string): string => `<section class="setup" aria-labelledby="setup-title">
<p id="setup-title"><strong>No admin exists yet.</strong> Make the first one in another terminal, then sign in with the password it prints:</p>
<code>${escapeHtml(command)}</code>
</section>
`;

/** `firstAdmin`: the command that makes the first admin, given while there is none. */
export const loginPage = (action: string, problem?: string, email = '', firstAdmin?: string): string =>
  page(
    'Sign in',
    `<h1>Sign in to the Knap admin console</h1>
${firstAdmin ? noAdminYet(firstAdmin) : ''}${problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(email)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );

/** The provider's errors (a bad authorization request, an expired sign-in), said plainly. */
export const errorPage = (out: Record<string, string>): string =>
  page(
    'Sign-in problem',
    `<h1>Sign-in problem</h1>
<p class="problem" role="alert">${escapeHtml(out.error_description ?? out.error ?? 'Something went wrong.')}</p>
<p>Go back to the console and sign in again.</p>`,
  );

/** Submits the provider's sign-out form at once: the console's "Sign out" asks nothing more. */
export const SIGN_OUT_SCRIPT = "document.getElementById('op.logoutForm').submit();";

/**
 * The provider's sign-out step: its form (with the session's anti-forgery token) submitted by
 * the one script above, allowed by its hash alone; without script, one button.
 */
export const signOutPage = (form: string): string =>
  page(
    'Signing out',
    `<h1>Signing out…</h1>
${form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>')}
<noscript><button type="submit" form="op.logoutForm">Sign out</button></noscript>
<script>${SIGN_OUT_SCRIPT}</script>`,
  );

/** A sign-out the admin's own console did not ask for: a question and a button, no script. */
export const signOutQuestion = (form: string): string =>
  page(
    'Sign out?',
    `<h1>Sign out of the Knap admin console?</h1>
${form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>')}
<button type="submit" form="op.logoutForm">Sign out</button>`,
  );

/** Where a sign-out without a way back ends. */
export const signedOutPage = (): string =>
  page('Signed out', '<h1>Signed out</h1>\n<p>You have signed out of the Knap admin console.</p>');
