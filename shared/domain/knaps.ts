export const SCHEDULE_TYPES = ['manual', 'scheduled', 'post_meeting_transcription'] as const;
export type KnapScheduleType = (typeof SCHEDULE_TYPES)[number];

/** A Knap in the wire format of the seed (snake_case fields). */
export interface Knap {
  uuid: string;
  name: string;
  creation_user_id: number;
  schedule_type: KnapScheduleType;
  is_active: boolean;
  visibility: string;
  can_toggle_default_active: boolean;
  active_by_default: boolean;
  tool_metadata: Record<string, unknown>;
  creation_timestamp: string;
  updated_at: string;
  schedule_info: Record<string, unknown> | null;
  next_run_at: string | null;
}

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
