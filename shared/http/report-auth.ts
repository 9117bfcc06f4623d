import { authenticateReport } from '../services/run-events.js';
import type { RequestStep } from './types.js';

/** Checks `Authorization: Bearer <report token>` for the path's run before anything else (no I/O). */
export const reportAuth: RequestStep = async (request) => {
  const { deps, requestState } = request.context;
  requestState.report = await authenticateReport(
    deps,
    request.event.headers?.authorization,
    request.event.pathParameters?.run_id ?? '',
  );
};
