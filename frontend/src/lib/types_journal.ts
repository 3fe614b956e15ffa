// The journal's shapes as the window reads them (Go: package journal and
// app's Activity): sessions, turns, calls, approvals, saved answers.
// Re-exported by types.ts; types.check.ts checks them against the Go structs.

export interface JournalSession {
  id: string;
  coworker: string;
  coworker_version: string;
  identity: string;
  provider: string;
  model: string;
  approve: string;
  status: string;
  error: string;
  created_at: string;
  updated_at: string;
  /** The first turn's prompt (lists only). */
  first_prompt?: string;
  /** Open, but its process is gone (lists only). */
  interrupted?: boolean;
  /** How many of its calls wait for reconciliation (lists only; absent when 0). */
  unreconciled?: number;
  /** The chat's title: the one a person set, else its first prompt on one line ("" before one; lists only). */
  title?: string;
  /** A person set the title (a rename). */
  title_set?: boolean;
  /** Hidden from the sidebar's chat list (still journaled). */
  hidden?: boolean;
  /** Its newest message's time (or its last change); lists only. */
  last_activity?: string;
}

/** One page of Activity (Go: journal.SessionPage): newest first. */
export interface SessionPage {
  sessions: JournalSession[] | null;
  /** The `before` of the next page; "" on the last. */
  next: string;
}

/**
 * A saved "always allow" / "always deny" answer, as Settings → Permissions
 * lists it (Go: app.SavedPolicy; docs/consent.md#saved-answers).
 */
export interface SavedPolicy {
  coworker: string;
  /** Qualified tool name, e.g. "device.battery_status_get". */
  tool: string;
  /** "sha256:…" of the tool's descriptor and placement: a changed tool finds no policy. */
  descriptor_digest: string;
  policy: "allow" | "deny";
  created_at: string;
  updated_at: string;
  /** Set when the harness ignores the row (outside the journal's hash chain): why. */
  ignored?: string;
}

/**
 * An "allow for this session" answer an open chat holds (Go:
 * consent.Grant; docs/consent.md#grants-in-a-chat).
 */
export interface Grant {
  /** Qualified tool name. */
  tool: string;
  /** The descriptor digest the grant binds to. */
  digest: string;
}

/** What "Needs attention" counts (Go: app.Waiting). */
export interface Waiting {
  sessions: number;
  calls: number;
}

/**
 * What a person records for a call whose status is "unknown" (Go:
 * journal.OutcomeApplied, journal.OutcomeNotApplied): spelled as the
 * journal's effects are.
 */
export type Outcome = "applied" | "not_applied";

export interface Invocation {
  id: string;
  session_id: string;
  turn_id?: string;
  call_id: string;
  tool: string;
  alias: string;
  provider: string;
  /** "on this computer" or a remote host; absent in rows from before schema v9. */
  placement?: string;
  risk: string;
  arguments: unknown;
  status: string;
  result?: unknown;
  error_code?: string;
  error?: string;
  effect: string;
  /** "" until a person reconciles an unknown call, then the Outcome. */
  reconciled: "" | Outcome;
  reconciled_by?: string;
  reconciled_at?: string;
  duration_ms: number;
  /** The app view shown for this call (docs/mcp-apps.md#journal): its URI, bytes and digest, never the page. */
  ui_uri?: string;
  ui_size?: number;
  ui_digest?: string;
  /** "view:<invocation id>" for a call asked by an app view; absent for the model's calls. */
  origin?: string;
  created_at: string;
  started_at?: string;
  finished_at?: string;
}

export interface JournalTurn {
  id: string;
  seq: number;
  prompt: string;
  status: string;
  reason?: string;
  /** The model and approval mode the turn ran with (from schema v7). */
  model?: string;
  approve?: string;
}

export interface Approval {
  invocation_id?: string;
  call_id?: string;
  tool: string;
  decision: string;
  source: string;
  reason: string;
}

/** The journaled form of one history message (harness/model.Message). */
export interface MessageContent {
  role: string;
  text?: string;
  tool_calls?: { id: string; name: string; arguments: string }[];
  tool_call_id?: string;
  tool_name?: string;
  is_error?: boolean;
}

export interface JournalMessage {
  id: number;
  turn_id?: string;
  role: string;
  content: MessageContent;
}

export interface SessionDetail extends JournalSession {
  turns: JournalTurn[] | null;
  messages: JournalMessage[] | null;
  invocations: Invocation[] | null;
  approvals: Approval[] | null;
  warnings: { code: string; tool?: string; message: string }[] | null;
}
