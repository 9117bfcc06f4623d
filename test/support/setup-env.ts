import '../../local/quiet-sdk-warning.js';

// Handlers log through Powertools; tests read behaviour, not log lines on stdout.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
