/**
 * Manual and after-meeting runs, and a Knap's run history. Scheduled runs are the
 * dispatcher's (dispatcher.ts). A new run is stored pending, then queued for delivery.
 */
import { isoSeconds } from '../domain/clock.js';
import type { StoredKnap } from '../domain/knaps.js';
import type { PageRequest } from '../domain/repository.js';
import {
  MEETING_FAN_OUT_PAGE,
  type MeetingRuns,
  type MeetingTranscription,
  newRun,
  type Run,
  type RunPage,
  runId,
  runMeeting,
} from '../domain/runs.js';
import { ApiError } from '../errors.js';
import type { Deps } from '../runtime.js';
import { readKnap } from './knap-lifecycle.js';
import { meetingRuns } from './meeting-fan-out.js';
import { readPage } from './paging.js';
import type { Caller } from './request-state.js';

/** POST /api/studio/knap-tools/{uuid}/runs: any Knap the caller sees, if active; `input` is kept on the run and delivered with it. */
export const startManualRun = async (
  deps: Deps,
  caller: Caller,
  uuid: string,
  input: Record<string, unknown> | null = null,
): Promise<Run> => {
  const stored = await readKnap(deps, caller, uuid);
  if (!stored.knap.is_active) throw new ApiError(409, 'The Knap is not active: activate it (PATCH is_active true) to run it');
  const run = newRun({
    run_id: runId.manual(),
    knap_uuid: stored.knap.uuid,
    trigger: 'manual',
    scheduled_for: null,
    meeting_id: null,
    created_at: isoSeconds(deps.clock.now()),
    input,
  });
  await deps.repo.putRun({ run, orgName: stored.ownership.orgName, deliveredTo: [], knapName: stored.knap.name });
  await deps.deliveries.enqueue(run.run_id, 0, { orgName: stored.ownership.orgName });
  return run;
};

/**
 * POST /api/studio/meeting-transcriptions: one run per active after-meeting Knap the caller
 * sees, at most one per (Knap, meeting) ever: the run id derives from both and is written with
 * a condition, so a repeated report, a concurrent one or one from a colleague's client finds
 * the run that exists instead of making another. Each new run carries the meeting as reported
 * (`meeting`); a later report of the same meeting answers the runs as first made.
 *
 * Bounded work whatever the number of Knaps: the runs of the first MEETING_FAN_OUT_PAGE
 * Knaps are made (25 writes at a time) and answered; when there are more, one message on the
 * delivery queue carries the rest (meeting-fan-out.ts, a page per message) and the answer
 * says how many (`runs_pending`, counted by COUNT queries that return no items). A report of
 * a meeting whose later runs exist already queues the rest again: those pages find the runs
 * and make nothing.
 */
export const reportMeeting = async (deps: Deps, caller: Caller, meeting: MeetingTranscription): Promise<MeetingRuns> => {
  const viewer = { clientId: caller.client.clientId, orgName: caller.client.orgName };
  const details = runMeeting(meeting);
  const first = await deps.repo.listMeetingKnaps(viewer, { limit: MEETING_FAN_OUT_PAGE });
  const runs = await meetingRuns(deps, viewer.orgName, first.uuids, details);
  const answer: MeetingRuns = {
    meeting_id: meeting.meeting_id,
    runs: runs.sort((a, b) => a.knap_uuid.localeCompare(b.knap_uuid)),
  };
  const pending = first.next ? await deps.repo.countMeetingKnaps(viewer, first.next) : 0;
  if (first.next && pending > 0) {
    await deps.deliveries.enqueueMeetingFanOut({
      meeting: details,
      client_id: viewer.clientId,
      org_name: viewer.orgName,
      cursor: first.next,
    });
    answer.runs_pending = pending;
  }
  return answer;
};

/** GET /api/studio/knap-tools/{uuid}/runs: newest first, for any Knap the caller sees. */
export const listRuns = async (deps: Deps, caller: Caller, uuid: string, page: PageRequest): Promise<RunPage> => {
  const stored: StoredKnap = await readKnap(deps, caller, uuid);
  const { runs, next } = await readPage(() => deps.repo.listRuns(stored.knap.uuid, page));
  return { runs, next_cursor: next };
};
