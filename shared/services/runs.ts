/**
 * Manual and after-meeting runs, and a Knap's run history. Scheduled runs are the
 * dispatcher's (dispatcher.ts). A new run is stored pending, then queued for delivery.
 */
import { isoSeconds } from '../domain/clock.js';
import type { Knap, KnapPage, StoredKnap } from '../domain/knaps.js';
import { InvalidCursorError, type PageRequest } from '../domain/repository.js';
import {
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
import type { Caller } from './request-state.js';

/** POST /api/studio/knap-tools/{uuid}/runs: any Knap the caller sees, if active. */
export const startManualRun = async (deps: Deps, caller: Caller, uuid: string): Promise<Run> => {
  const stored = await readKnap(deps, caller, uuid);
  if (!stored.knap.is_active) throw new ApiError(409, 'The Knap is not active: activate it (PATCH is_active true) to run it');
  const run = newRun({
    run_id: runId.manual(),
    knap_uuid: stored.knap.uuid,
    trigger: 'manual',
    scheduled_for: null,
    meeting_id: null,
    created_at: isoSeconds(deps.clock.now()),
  });
  await deps.repo.putRun({ run, orgName: stored.ownership.orgName, deliveredTo: [] });
  await deps.deliveries.enqueue(run.run_id, 0);
  return run;
};

/** Every page of a listing. */
const everyPage = async (read: (cursor?: string) => Promise<KnapPage>): Promise<Knap[]> => {
  const knaps: Knap[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    knaps.push(...page.knaps);
    cursor = page.next ?? undefined;
  } while (cursor);
  return knaps;
};

/** The active after-meeting Knaps the caller sees: its own, and those its organization shares. */
const meetingKnaps = async (deps: Deps, caller: Caller): Promise<Knap[]> => {
  const { clientId, orgName } = caller.client;
  const [mine, shared] = await Promise.all([
    everyPage((cursor) => deps.repo.listKnapsByCreator(clientId, { limit: 100, cursor })),
    everyPage((cursor) => deps.repo.listSharedKnaps(orgName, { limit: 100, cursor })),
  ]);
  const byUuid = new Map([...mine, ...shared].map((knap) => [knap.uuid, knap]));
  return [...byUuid.values()].filter((knap) => knap.schedule_type === 'post_meeting_transcription' && knap.is_active);
};

/**
 * POST /api/studio/meeting-transcriptions: one run per active after-meeting Knap the caller
 * sees, at most one per (Knap, meeting) ever: the run id derives from both and is written with
 * a condition, so a repeated report, a concurrent one or one from a colleague's client finds
 * the run that exists instead of making another. Each new run carries the meeting as reported
 * (`meeting`); a later report of the same meeting answers the runs as first made.
 */
export const reportMeeting = async (deps: Deps, caller: Caller, meeting: MeetingTranscription): Promise<MeetingRuns> => {
  const knaps = await meetingKnaps(deps, caller);
  const createdAt = isoSeconds(deps.clock.now());
  const details = runMeeting(meeting);
  const runs = await Promise.all(
    knaps.map(async (knap) => {
      const run = newRun({
        run_id: runId.meeting(knap.uuid, meeting.meeting_id),
        knap_uuid: knap.uuid,
        trigger: 'post_meeting_transcription',
        scheduled_for: null,
        meeting_id: meeting.meeting_id,
        meeting: details,
        created_at: createdAt,
      });
      if (await deps.repo.putRun({ run, orgName: caller.client.orgName, deliveredTo: [] })) {
        await deps.deliveries.enqueue(run.run_id, 0);
        return run;
      }
      const earlier = await deps.repo.getRun(run.run_id);
      if (!earlier) throw new Error(`Run ${run.run_id} was reported to exist and then could not be read`);
      return earlier.run;
    }),
  );
  return { meeting_id: meeting.meeting_id, runs: runs.sort((a, b) => a.knap_uuid.localeCompare(b.knap_uuid)) };
};

/** GET /api/studio/knap-tools/{uuid}/runs: newest first, for any Knap the caller sees. */
export const listRuns = async (deps: Deps, caller: Caller, uuid: string, page: PageRequest): Promise<RunPage> => {
  const stored: StoredKnap = await readKnap(deps, caller, uuid);
  try {
    const { runs, next } = await deps.repo.listRuns(stored.knap.uuid, page);
    return { runs, next_cursor: next };
  } catch (error) {
    if (error instanceof InvalidCursorError) {
      throw new ApiError(400, 'cursor is not valid: pass the next_cursor of an earlier response unchanged');
    }
    throw error;
  }
};
