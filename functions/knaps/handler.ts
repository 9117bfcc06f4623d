import { areaFunction } from '../area.js';
import * as deleteKnap from './delete-knap.js';
import * as getKnap from './get-knap.js';
import * as getRun from './get-run.js';
import * as listKnaps from './list-knaps.js';
import * as listRunEvents from './list-run-events.js';
import * as listRuns from './list-runs.js';
import * as previewSchedule from './preview-schedule.js';
import * as reportMeeting from './report-meeting.js';
import * as reportRunEvent from './report-run-event.js';
import * as startRun from './start-run.js';
import * as updateKnap from './update-knap.js';

/** The Knap routes but creation (which has its own function): list, read, change, delete, run, runs, meeting reports, schedule preview: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('knaps', {
  'list-knaps': listKnaps,
  'get-knap': getKnap,
  'update-knap': updateKnap,
  'delete-knap': deleteKnap,
  'start-run': startRun,
  'list-runs': listRuns,
  'report-meeting': reportMeeting,
  'preview-schedule': previewSchedule,
  'get-run': getRun,
  'list-run-events': listRunEvents,
  'report-run-event': reportRunEvent,
});
