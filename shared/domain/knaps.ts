import type { Knap } from '../schemas/responses.js';

export const SCHEDULE_TYPES = ['manual', 'scheduled', 'post_meeting_transcription'] as const;
export type KnapScheduleType = (typeof SCHEDULE_TYPES)[number];

export type { Knap };

/** Where a Knap lives and who made it: what listing and isolation need besides the Knap itself. */
export interface KnapOwnership {
  orgName: string;
  creatorClientId: string;
}

export interface KnapPage {
  knaps: Knap[];
  /** Opaque position to continue from, or null at the end. */
  next: string | null;
}

export const isShared = (visibility: string): boolean => visibility !== 'private';
