// The chat reducer: folds the harness events of one session into what the
// Chat screen shows. Pure functions, so they are unit-tested without a UI.
import { HarnessEventType as T } from "./events";
import type { HarnessEvent, PendingApproval, ApprovalClosed, Invocation, JournaledResult, SessionDetail } from "./types";
import type { CardResult } from "./result";

export type ToolStatus =
  | "proposed" | "awaiting_approval" | "running" | "succeeded" | "failed" | "unknown" | "refused";

/** A tool call's card; its result fields (CardResult) are what lib/result.ts shows. */
export interface ToolCardItem extends CardResult {
  kind: "tool";
  key: string; // invocation id
  callId: string;
  tool: string; // qualified name (the alias until approval says more)
  args: unknown;
  status: ToolStatus;
  decision?: string;
  decisionReason?: string;
  /** Who decided (journal approval source): "policy:user" for a saved "always" answer, "prompt", "grant", ... */
  decisionSource?: string;
  progress: { text: string; data?: unknown }[];
  error?: string;
  durationMs?: number;
  /** The call's app view (tool.finished's ui_resource; the journal's ui_uri/ui_size/ui_digest in history). */
  ui?: { uri: string; digest?: string; size?: number; error?: string };
  /** "view:<invocation id>" for a call asked by an app view (docs/mcp-apps.md). */
  origin?: string;
  /** The tool whose view asked for this call (from the origin's card), for "from the app view of TOOL". */
  originTool?: string;
  /** A view's calls of one tool share one card (docs/mcp-apps.md#view-calls): how many it stands for, when more than one. */
  calls?: number;
  /** History only: what the person recorded for an unknown call ("applied" or "not_applied"). */
  reconciled?: string;
  /** History only: the call's risk (journal), so a stopped read-only call is not said to need reconciliation. */
  risk?: string;
}

export type Item =
  // at: when the UI sent the prompt or got the message's first text (ms since
  // the epoch, client clock); absent for history (the journal keeps no message time).
  | { kind: "user"; key: string; text: string; at?: number }
  | { kind: "assistant"; key: string; text: string; streaming: boolean; at?: number }
  | ToolCardItem
  | { kind: "notice"; key: string; level: "info" | "warning" | "error"; text: string };

export interface ChatState {
  items: Item[];
  running: boolean;
  turnId: string;
  /** How the last turn ended ("" while none has, or one runs); a failed, stopped or cancelled one can be retried. */
  lastStatus: string;
}

/** At most this many progress lines are kept per card (docs/limits.md allows 64). */
export const MaxProgress = 64;

export function emptyChat(): ChatState {
  return { items: [], running: false, turnId: "", lastStatus: "" };
}

function updateCard(s: ChatState, key: string | undefined, f: (c: ToolCardItem) => ToolCardItem): ChatState {
  if (!key) return s;
  let found = false;
  const items = s.items.map((it) => {
    if (it.kind === "tool" && it.key === key) {
      found = true;
      return f(it);
    }
    return it;
  });
  return found ? { ...s, items } : s;
}

function finishStreaming(items: Item[]): Item[] {
  return items.map((it) => (it.kind === "assistant" && it.streaming ? { ...it, streaming: false } : it));
}

/** reduce applies one harness event to a chat's state and returns the new state; clock (ms since the epoch) stamps new messages. */
export function reduce(s: ChatState, e: HarnessEvent, clock: () => number = Date.now): ChatState {
  const now = clock();
  const turn = e.turn_id ?? "";
  const attemptKey = `a:${turn}:${e.attempt ?? 0}`;
  switch (e.type) {
    case T.TurnStarted:
      // A retry sends no new message: the prompt is already in the chat.
      return {
        ...s, running: true, turnId: turn, lastStatus: "",
        items: e.status === "retry"
          ? [...s.items, { kind: "notice", key: `r:${turn}`, level: "info", text: "Retrying…" }]
          : [...s.items, { kind: "user", key: `u:${turn}`, text: e.text ?? "", at: now }],
      };
    case T.Text: {
      const last = s.items[s.items.length - 1];
      if (last && last.kind === "assistant" && last.key === attemptKey && last.streaming) {
        return { ...s, items: [...s.items.slice(0, -1), { ...last, text: last.text + (e.text ?? "") }] };
      }
      return { ...s, items: [...s.items, { kind: "assistant", key: attemptKey, text: e.text ?? "", streaming: true, at: now }] };
    }
    case T.AssistantMessage: {
      const i = s.items.findIndex((it) => it.kind === "assistant" && it.key === attemptKey);
      const prev = s.items[i];
      const msg: Item = { kind: "assistant", key: attemptKey, text: e.text ?? "", streaming: false, at: prev?.kind === "assistant" ? prev.at : now };
      if (i < 0) return { ...s, items: [...s.items, msg] };
      const items = s.items.slice();
      items[i] = msg;
      return { ...s, items };
    }
    case T.ToolProposed: {
      const card: ToolCardItem = {
        kind: "tool", key: e.invocation_id ?? e.call_id ?? `c:${s.items.length}`, callId: e.call_id ?? "",
        tool: e.tool || e.alias || "", args: e.arguments, status: "proposed", progress: [],
        ...(e.origin ? { origin: e.origin, originTool: originTool(s.items, e.origin) } : {}),
      };
      const again = e.origin ? sameViewCall(s.items, card) : -1;
      if (again >= 0) {
        const items = s.items.slice();
        items[again] = { ...card, calls: ((items[again] as ToolCardItem).calls ?? 1) + 1 };
        return { ...s, items };
      }
      return { ...s, items: [...finishStreaming(s.items), card] };
    }
    case T.ApprovalRequired:
      return updateCard(s, e.invocation_id, (c) => ({ ...c, tool: e.tool || c.tool, status: "awaiting_approval" }));
    case T.ApprovalDecided:
      return updateCard(s, e.invocation_id, (c) => ({
        ...c, tool: e.tool || c.tool, decision: e.status, decisionReason: e.text, decisionSource: e.source,
        status: c.status === "awaiting_approval" ? "proposed" : c.status,
      }));
    case T.ToolStarted:
      return updateCard(s, e.invocation_id, (c) => ({ ...c, tool: e.tool || c.tool, status: "running" }));
    case T.ToolProgress:
      return updateCard(s, e.invocation_id, (c) =>
        c.progress.length >= MaxProgress ? c : { ...c, progress: [...c.progress, { text: e.text ?? "", data: e.data }] });
    case T.ToolFinished:
      return updateCard(s, e.invocation_id, (c) => ({
        ...c, tool: e.tool || c.tool, status: (e.status as ToolStatus) || "failed",
        result: e.text, error: e.code === "not_selected" ? notSelected(e.alias || c.tool, c.origin || e.origin ? "The app view" : undefined) : e.error, durationMs: e.duration_ms,
        structured: e.structured, content: e.content, images: e.image_urls,
        ...(e.ui_resource ? { ui: { ...e.ui_resource } } : {}),
        ...(e.origin && !c.origin ? { origin: e.origin, originTool: originTool(s.items, e.origin) } : {}),
      }));
    case T.Warning:
      return { ...s, items: [...s.items, { kind: "notice", key: `w:${s.items.length}`, level: "warning", text: e.text ?? "" }] };
    case T.Error:
      return { ...s, items: [...finishStreaming(s.items), { kind: "notice", key: `e:${s.items.length}`, level: "error", text: e.error || e.text || "error" }] };
    case T.TurnFinished: {
      let items = finishStreaming(s.items);
      const status = e.status ?? "";
      const from = items.findIndex((it) => it.key === `u:${turn}` || it.key === `r:${turn}`);
      const hadError = status === "failed" &&
        items.slice(from + 1).some((it) => it.kind === "notice" && it.level === "error");
      if ((status === "stopped" || status === "cancelled" || status === "failed") && !hadError) {
        const text = status === "cancelled" ? "Cancelled." : `Turn ${status}: ${e.error || "no reason given"}`;
        items = [...items, { kind: "notice", key: `t:${turn}`, level: status === "cancelled" ? "info" : "error", text }];
      }
      // "Retrying…" is over once the retried turn ends: gone after a success,
      // "Retried." before the notice of a retry that did not complete.
      const ended = status === "stopped" || status === "cancelled" || status === "failed";
      items = items.flatMap((it) => it.kind !== "notice" || it.key !== `r:${turn}` ? [it] : ended ? [{ ...it, text: "Retried." }] : []);
      return { ...s, items, running: false, lastStatus: status };
    }
    default:
      return s;
  }
}

const journalStatuses: ToolStatus[] = ["succeeded", "failed", "unknown", "refused"];

/** The notice a turn that did not complete ends with (as reduce shows it live). */
function turnNotice(turnId: string, status: string, reason: string): Item | null {
  if (status !== "stopped" && status !== "cancelled" && status !== "failed") return null;
  const text = status === "cancelled" ? "Cancelled." : `Turn ${status}: ${reason || "no reason given"}`;
  return { kind: "notice", key: `t:${turnId}`, level: status === "cancelled" ? "info" : "error", text };
}

/**
 * historyState rebuilds a chat from the journal (SessionDetail), for a chat
 * that is continued: each user prompt, each assistant text and a card per
 * tool call, with the invocation's status, result, error and duration and
 * the consent decision, then the end of each turn that did not complete.
 * An invocation still "prepared" or "executing" shows as "unknown": no
 * process is running it any more; a call with no invocation never started
 * (refused before, or its process stopped first) and shows as "refused".
 * tools (the chat's) turn the model's aliases back into tool names.
 */
export function historyState(d: SessionDetail, tools: { name: string }[] = []): ChatState {
  const names = new Map(tools.map((t) => [t.name.replaceAll(".", "__"), t.name]));
  // Invocations per turn and call ID, in order: a call ID may repeat (some
  // providers send none and get call_0, call_1, ... in every reply).
  const invs = new Map<string, Invocation[]>();
  // Calls asked by an app view are in no model message: each gets its card
  // after its origin's card (and the view calls before it), below.
  const viewCalls: Invocation[] = [];
  for (const inv of d.invocations ?? []) {
    if (inv.origin) {
      viewCalls.push(inv);
      continue;
    }
    const k = `${inv.turn_id ?? ""}|${inv.call_id}`;
    invs.set(k, [...(invs.get(k) ?? []), inv]);
  }
  const decisions = new Map<string, { decision: string; reason: string; source: string }>();
  for (const a of d.approvals ?? []) if (a.invocation_id) decisions.set(a.invocation_id, { decision: a.decision, reason: a.reason, source: a.source });
  const turns = new Map((d.turns ?? []).map((t) => [t.id, t]));
  const msgs = d.messages ?? [];
  const items: Item[] = [];
  const keys = new Set<string>();
  const push = (it: Item) => {
    let key = it.key;
    for (let n = 2; keys.has(key); n++) key = `${it.key}#${n}`;
    keys.add(key);
    items.push(key === it.key ? it : { ...it, key });
  };
  let turn: string | undefined;
  // Turns in order: one with no message of its own (a retry that failed
  // again) still shows how it ended, after the turn before it.
  const order = (d.turns ?? []).map((t) => t.id);
  let shown = -1;
  const endTurn = (upTo: number) => {
    for (let k = shown + 1; k <= upTo; k++) {
      const t = turns.get(order[k]);
      const n = t && turnNotice(t.id, t.status, t.reason ?? "");
      if (n) push(n);
    }
    shown = Math.max(shown, upTo);
  };
  for (let i = 0; i < msgs.length; ) {
    const m = msgs[i++];
    const c = m.content ?? { role: m.role };
    if (m.turn_id !== turn) {
      const at = order.indexOf(m.turn_id ?? "");
      endTurn(at < 0 ? order.indexOf(turn ?? "") : at - 1);
      turn = m.turn_id;
    }
    if (m.role === "user") {
      push({ kind: "user", key: `u:${m.turn_id ?? m.id}`, text: c.text ?? "" });
      continue;
    }
    if (m.role !== "assistant") continue; // a tool answer: shown on its call's card
    if (c.text) push({ kind: "assistant", key: `h:${m.id}`, text: c.text, streaming: false });
    // The answers of this message are the tool messages right after it,
    // paired with its calls in order, as the harness pairs them.
    const answers: { text: string; isError: boolean; callId: string; used: boolean }[] = [];
    while (i < msgs.length && msgs[i].role === "tool") {
      const a = msgs[i++].content ?? { role: "tool" };
      answers.push({ text: a.text ?? "", isError: !!a.is_error, callId: a.tool_call_id ?? "", used: false });
    }
    (c.tool_calls ?? []).forEach((tc, n) => {
      const list = invs.get(`${m.turn_id ?? ""}|${tc.id}`);
      const inv = list?.shift();
      const ans = answers.find((a) => !a.used && a.callId === tc.id);
      if (ans) ans.used = true;
      let status: ToolStatus = "unknown";
      if (inv) status = journalStatuses.includes(inv.status as ToolStatus) ? (inv.status as ToolStatus) : "unknown";
      else if (ans) status = ans.isError ? "refused" : "succeeded";
      const dec = inv ? decisions.get(inv.id) : undefined;
      const args = parsedArgs(inv?.arguments ?? tc.arguments);
      const jr = journaledResult(status, inv);
      push({
        kind: "tool", key: inv?.id ?? `h:${m.id}:${n}`, callId: tc.id, tool: inv?.tool || names.get(tc.name) || tc.name, args, status,
        decision: dec?.decision, decisionReason: dec?.reason, decisionSource: dec?.source, progress: [],
        result: ans && !ans.isError ? ans.text : undefined,
        structured: jr?.structured, content: jr?.content,
        images: jr?.images?.map((im) => ({ mime_type: im.mime_type, bytes: im.bytes })),
        error: inv?.error || (ans?.isError ? ans.text : undefined),
        durationMs: inv ? inv.duration_ms : undefined,
        ...journaledView(inv),
        ...(inv ? { reconciled: inv.reconciled || undefined, risk: inv.risk } : {}),
      });
    });
  }
  endTurn(order.length - 1);
  for (const inv of viewCalls) {
    const from = viewInvocation(inv.origin ?? "");
    let at = items.findIndex((it) => it.kind === "tool" && it.key === from);
    if (at < 0) at = items.length - 1;
    else while (at + 1 < items.length && items[at + 1].kind === "tool" && (items[at + 1] as ToolCardItem).origin === inv.origin) at++;
    const card = historyCard(inv, decisions.get(inv.id), items);
    const again = sameViewCall(items, card);
    if (again >= 0) {
      items[again] = { ...card, key: items[again].key, calls: ((items[again] as ToolCardItem).calls ?? 1) + 1 };
      continue;
    }
    let key = card.key;
    for (let n = 2; keys.has(key); n++) key = `${card.key}#${n}`;
    keys.add(key);
    items.splice(at + 1, 0, { ...card, key });
  }
  // The last turn's end decides whether Retry is offered.
  const last = (d.turns ?? []).at(-1);
  return { ...emptyChat(), items, lastStatus: last && last.status !== "running" ? last.status : "" };
}

/**
 * sameViewCall is the index of the card a new view call updates in place
 * (docs/mcp-apps.md#view-calls): the card of an earlier, finished call of
 * the same tool from the same view; -1 when there is none (a call still
 * running keeps its own card).
 */
export function sameViewCall(items: Item[], card: ToolCardItem): number {
  return items.findIndex((it) => it.kind === "tool" && !!it.origin && it.origin === card.origin && it.tool === card.tool &&
    it.status !== "proposed" && it.status !== "awaiting_approval" && it.status !== "running");
}

/** The invocation id of an origin "view:<id>" ("" for another origin). */
export function viewInvocation(origin: string): string {
  return origin.startsWith("view:") ? origin.slice("view:".length) : "";
}

/** The tool of the card whose view is origin ("view:<id>"), or undefined. */
export function originTool(items: Item[], origin: string): string | undefined {
  const id = viewInvocation(origin);
  const c = items.find((it) => it.kind === "tool" && it.key === id);
  return c?.kind === "tool" ? c.tool : undefined;
}

/** Journaled arguments as a value (a JSON text parsed; shown raw when it does not parse). */
function parsedArgs(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args);
  } catch {
    return args; // shown as the raw text
  }
}

/**
 * A succeeded call's journaled result: its blocks and structured value, its
 * images only as sizes (the journal keeps no pixels).
 */
function journaledResult(status: ToolStatus, inv: Invocation | undefined): JournaledResult | undefined {
  return status === "succeeded" && inv?.result && typeof inv.result === "object" ? (inv.result as JournaledResult) : undefined;
}

/** The card's view from the journal's ui_uri, ui_size and ui_digest (none: {}). */
function journaledView(inv: Invocation | undefined): Pick<ToolCardItem, "ui"> {
  return inv?.ui_uri ? { ui: { uri: inv.ui_uri, size: inv.ui_size, digest: inv.ui_digest } } : {};
}

/** A card for a journaled call asked by an app view (it has no model message). */
function historyCard(inv: Invocation, dec: { decision: string; reason: string; source: string } | undefined, items: Item[]): ToolCardItem {
  const status: ToolStatus = journalStatuses.includes(inv.status as ToolStatus) ? (inv.status as ToolStatus) : "unknown";
  const jr = journaledResult(status, inv);
  return {
    kind: "tool", key: inv.id, callId: inv.call_id, tool: inv.tool, args: parsedArgs(inv.arguments), status,
    decision: dec?.decision, decisionReason: dec?.reason, decisionSource: dec?.source, progress: [],
    result: jr?.text, structured: jr?.structured, content: jr?.content,
    images: jr?.images?.map((im) => ({ mime_type: im.mime_type, bytes: im.bytes })),
    error: inv.error || undefined, durationMs: inv.duration_ms,
    ...journaledView(inv),
    reconciled: inv.reconciled || undefined, risk: inv.risk,
    origin: inv.origin, originTool: originTool(items, inv.origin ?? ""),
  };
}

/** Pending consent prompts, oldest first; the modal shows the first. */
export function addApproval(list: PendingApproval[], p: PendingApproval): PendingApproval[] {
  return list.some((x) => x.id === p.id) ? list : [...list, p];
}

export function closeApproval(list: PendingApproval[], c: ApprovalClosed): PendingApproval[] {
  return list.filter((x) => x.id !== c.id);
}

/** Pretty-prints tool arguments for a card or the consent modal. */
export function formatArgs(args: unknown): string {
  if (args === undefined || args === null) return "{}";
  if (typeof args === "string") {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args, null, 2);
}

/** Source of a decision made by a saved "always allow" / "always deny" answer (Go: consent.SourceUser). */
export const SourceUserPolicy = "policy:user";

/**
 * A consent decision (docs/consent.md) in words. A call let through by a
 * saved "always allow" is decided allow_once with source "policy:user": it
 * reads "allowed — always for this coworker", not "allowed once".
 */
export function decisionLabel(d: string, source?: string): string {
  if (source === SourceUserPolicy) {
    if (d === "allow_once") return "allowed — always for this coworker";
    if (d === "deny") return "denied — Never for this coworker";
  }
  const words: Record<string, string> = {
    allow_once: "allowed once", allow_session: "allowed for this session",
    allow_always: "always allowed for this coworker", deny: "denied",
  };
  return words[d] ?? d.replaceAll("_", " ");
}

export { formatResult } from "./result";

/** A message's time for its hover title, as "14:05:09" (today) or "1 Dec 2026, 14:05:09"; "" for none. */
export function formatTime(at: number | undefined, now: number = Date.now()): string {
  if (at === undefined) return "";
  const d = new Date(at);
  const time = d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  if (new Date(now).toDateString() === d.toDateString()) return time;
  return `${d.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" })}, ${time}`;
}

/** Formats a duration in ms as "850 ms" or "2.4 s". */
/**
 * The card's words for a call the harness refused because the coworker was
 * not given that tool: for the person (the model got its own wording).
 */
export function notSelected(name: string, asker = "The model"): string {
  return `${asker} asked for “${name}”, a tool this coworker was not given, so it was refused and nothing ran.`;
}

/**
 * What the Activity table says of a call's time: its duration; for a call
 * recovered as interrupted (its process died, so nothing measured it) the
 * upper bound the journal's timestamps give, from its start to when the
 * next open found it — never "0 ms".
 */
export function callTime(inv: { error_code?: string; duration_ms: number; started_at?: string; finished_at?: string }): string {
  if (inv.error_code === "interrupted") {
    const from = Date.parse(inv.started_at ?? ""), to = Date.parse(inv.finished_at ?? "");
    return Number.isFinite(from) && Number.isFinite(to) && to >= from
      ? `interrupted; found ${formatDuration(to - from)} after it started`
      : "interrupted";
  }
  return formatDuration(inv.duration_ms);
}

/** Who a reconciliation from an A2A agent's own answer is by (harness.PollBy). */
export const POLL_BY = "a2a:poll";

/** True for a call of an A2A agent's skill, whose agent can be asked what became of it (docs/a2a.md#durable-handles). */
export function isAgentCall(inv: { provider: string }): boolean {
  return inv.provider.startsWith("a2a:");
}

/** The line under a reconciled call: what the person recorded, who and when. */
export function resolvedLine(inv: { reconciled: string; reconciled_by?: string; reconciled_at?: string }): string {
  if (!inv.reconciled) return "";
  const what = inv.reconciled === "applied" ? "applied" : "not applied";
  const by = inv.reconciled_by === POLL_BY ? " by the agent's own answer"
    : inv.reconciled_by ? ` by ${inv.reconciled_by.replace(/^user:/, "")}` : "";
  const at = inv.reconciled_at ? `, ${new Date(inv.reconciled_at).toLocaleString()}` : "";
  return `resolved: ${what}${by}${at}`;
}

export function formatDuration(ms?: number): string {
  if (ms === undefined || ms === null) return "";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
