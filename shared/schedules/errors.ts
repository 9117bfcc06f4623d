/** Any problem with a schedule description or a stored schedule; `detail` is safe to show users. */
export class ScheduleError extends Error {
  readonly detail: string;

  constructor(detail: string) {
    super(detail);
    this.name = 'ScheduleError';
    this.detail = detail;
  }
}

/** Two parts of one description that cannot both hold. */
export function contradiction(a: string, b: string): ScheduleError {
  return new ScheduleError(`${quote(a)} and ${quote(b)} contradict each other in the schedule description`);
}

/** Quotes user text for an error message, so the user can see exactly what was meant. */
export function quote(text: string): string {
  return `"${text}"`;
}
