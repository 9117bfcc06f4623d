/**
 * The runs of a meeting report, a page at a time: the report makes the first page's before
 * it answers (services/runs.ts), the delivery queue's consumer the rest, one page per
 * message, each message queuing the next. Kept apart from runs.ts so that deliver-runs
 * bundles only this (no Knap lifecycle, no request state).
 *
 * Exactly once per Knap per meeting, whatever the number of reports and however their pages
 * interleave or are retried: a run's id derives from (Knap, meeting) and is written only if
 * absent, so every writer after the first finds the run instead of making another, and only
 * the writer that made it queues its delivery.
 */
import { isoSeconds } from '../domain/clock.js';
import {
  MEETING_FAN_OUT_PAGE,
  type MeetingFanOut,
  type MeetingKnapsViewer,
  newRun,
  type Run,
  type RunMeeting,
  runId,
} from '../domain/runs.js';
import type { Deps } from '../runtime.js';

/** Run writes under way at once, so a page is neither one write at a time nor a burst of 100. */
export const MEETING_RUN_WRITES_AT_ONCE = 25;

/** `work` over every item, at most `limit` at once; results in the items' order. */
const mapAtMost = async <T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};

/**
 * The run of each Knap (by uuid) for the meeting: made (and queued for delivery) where there
 * was none, else the one that exists, as it is.
 */
export const meetingRuns = async (deps: Deps, orgName: string, uuids: readonly string[], meeting: RunMeeting): Promise<Run[]> => {
  const createdAt = isoSeconds(deps.clock.now());
  // The meeting index holds keys only: the page's names in one read, for each run to keep its Knap's.
  const names = await deps.repo.knapNames(orgName, uuids);
  return mapAtMost(uuids, MEETING_RUN_WRITES_AT_ONCE, async (uuid) => {
    const run = newRun({
      run_id: runId.meeting(uuid, meeting.meeting_id),
      knap_uuid: uuid,
      trigger: 'post_meeting_transcription',
      scheduled_for: null,
      meeting_id: meeting.meeting_id,
      meeting,
      created_at: createdAt,
    });
    if (await deps.repo.putRun({ run, orgName, deliveredTo: [], knapName: names.get(uuid) ?? null })) {
      await deps.deliveries.enqueue(run.run_id, 0, { orgName });
      return run;
    }
    const earlier = await deps.repo.getRun(run.run_id);
    if (!earlier) throw new Error(`Run ${run.run_id} was reported to exist and then could not be read`);
    return earlier.run;
  });
};

/**
 * One page of a meeting report's remaining Knaps (a queue message): their runs, then the next
 * page queued if the listing goes on. A message handled twice (the queue is at-least-once)
 * makes nothing twice; one that throws is retried by the queue, and makes what is missing.
 */
export const continueMeetingFanOut = async (deps: Deps, task: MeetingFanOut): Promise<void> => {
  const viewer: MeetingKnapsViewer = { clientId: task.client_id, orgName: task.org_name };
  const page = await deps.repo.listMeetingKnaps(viewer, { limit: MEETING_FAN_OUT_PAGE, cursor: task.cursor });
  await meetingRuns(deps, task.org_name, page.uuids, task.meeting);
  if (page.next) await deps.deliveries.enqueueMeetingFanOut({ ...task, cursor: page.next });
  deps.log.info('Meeting runs made', {
    meeting_id: task.meeting.meeting_id,
    org_name: task.org_name,
    knaps: page.uuids.length,
    more: page.next !== null,
  });
};
