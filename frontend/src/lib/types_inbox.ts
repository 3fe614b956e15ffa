// Shapes of the Inbox and Schedules screens (app/inbox.go, app/schedules.go;
// docs/app.md#inbox, docs/app.md#schedules). types.check.ts keeps them to
// the Go structs' fields.

/** One open inbox item as the Inbox screen shows it (app.InboxEntry). */
export interface InboxEntry {
  id: string;
  kind: "approval" | "question" | "signin" | "budget" | "reconcile";
  coworker: string;
  session_id: string;
  tool: string;
  /** What it asks, in words. */
  what: string;
  created_at: string;
  /** "" or the zero time: it waits until answered. */
  deadline: string;
  /** The run stopped and goes on once this is answered. */
  parked: boolean;
  /** The answers the screen offers ("show" brings up a question's dialog). */
  answers: string[] | null;
}

/** A schedule as the screen edits it (app.ScheduleInput). */
export interface ScheduleInput {
  coworker: string;
  prompt: string;
  /** "every 2h", "weekdays at 09:00" or a cron expression. */
  when: string;
  catch_up: boolean;
}

/** One claimed slot of a schedule (journal.ScheduleRun). */
export interface ScheduleRun {
  id: number;
  schedule_id: string;
  slot: string;
  missed: number;
  session_id?: string;
  status: string;
  claimed_at: string;
}

/** A schedule as listed (app.ScheduleInfo). */
export interface ScheduleInfo {
  id: string;
  coworker: string;
  prompt: string;
  when: string;
  catch_up: boolean;
  created_at: string;
  last_run?: ScheduleRun | null;
  /** Its next slot (RFC 3339); absent when its "when" does not work. */
  next?: string;
}

/** The answer buttons' words. */
export const answerLabel: Record<string, string> = {
  allow_once: "Allow once",
  allow_session: "Allow for this chat",
  allow_always: "Always allow",
  deny: "Deny",
  deny_always: "Never",
  continue: "Continue",
  stop: "Stop",
  applied: "It was applied",
  not_applied: "It was not applied",
  show: "Answer…",
};

/** since says how long ago t was, in words ("just now", "5 min ago", "3 h ago", "2 days ago"). */
export function since(t: string, now: number = Date.now()): string {
  const ms = now - new Date(t).getTime();
  if (!isFinite(ms) || ms < 60_000) return "just now";
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}
