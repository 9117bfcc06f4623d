// The AWS SDK warns on every start under Node.js 20 (support ends January 2027). The
// Lambdas run Node.js 22; for the local tools the warning is noise on stderr, where
// the admin CLI's errors go. Imported first, before any SDK client is built.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
