// oidc-provider warns at load on any Node.js before 22 LTS. `npm start` supports Node.js 20
// (the tests run the provider there), so on this one line the warning is noise on stderr, where
// the server's real errors go. Imported before oidc-provider; every other warning passes.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
  warn(...args);
};
