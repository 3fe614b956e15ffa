// The sidebar's chat list (docs/app.md#chats): every journaled session,
// newest first, from the journal (Go: Chats.Chats, Chats.SearchChats), kept up
// to date by chat:changed events. Pure functions, tested in
// chatlist.test.ts; state.svelte.ts holds the list.
import type { JournalSession } from "./types";

/** How long the search box waits after the last key before it asks the journal. */
export const SEARCH_DEBOUNCE_MS = 250;

/** The newest-first order of the list: by start time, then id (the journal's order). */
function newer(a: JournalSession, b: JournalSession): number {
  if (a.created_at !== b.created_at) return a.created_at > b.created_at ? -1 : 1;
  return a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
}

/**
 * upsertChat returns list with s in its place: replaced where it was, or
 * added in newest-first order. A hidden chat leaves the list unless
 * showHidden. A chat older than the last one loaded is only replaced, not
 * added: it belongs to a page not loaded yet (complete says there is none).
 */
export function upsertChat(list: JournalSession[], s: JournalSession, showHidden: boolean, complete = true): JournalSession[] {
  const rest = list.filter((c) => c.id !== s.id);
  if (s.hidden && !showHidden) return rest;
  const was = rest.length !== list.length;
  const last = rest[rest.length - 1];
  if (!was && !complete && last && newer(s, last) > 0) return rest;
  const i = rest.findIndex((c) => newer(s, c) < 0);
  return i < 0 ? [...rest, s] : [...rest.slice(0, i), s, ...rest.slice(i)];
}

/** appendPage adds an older page after list, leaving out chats already in it. */
export function appendPage(list: JournalSession[], page: JournalSession[]): JournalSession[] {
  const have = new Set(list.map((c) => c.id));
  return [...list, ...page.filter((c) => !have.has(c.id))];
}

/** chatTitle is what the list shows for a chat: its title, or "New chat" before its first prompt. */
export function chatTitle(s: Pick<JournalSession, "title">): string {
  return s.title?.trim() || "New chat";
}

/** Where a chat is: open in this window, running a turn, or as the journal says. */
export type ChatListStatus = "running" | "open here" | "interrupted" | "open elsewhere" | "closed" | "failed";

/**
 * chatStatus: a chat open in this window is "open here" ("running" while
 * a turn runs); otherwise the journal's status, with an open session whose
 * process is gone shown as "interrupted" and one another process holds as
 * "open elsewhere".
 */
export function chatStatus(s: Pick<JournalSession, "status" | "interrupted">, openHere: boolean, running: boolean): ChatListStatus {
  if (openHere) return running ? "running" : "open here";
  if (s.status === "open") return s.interrupted ? "interrupted" : "open elsewhere";
  return s.status === "failed" ? "failed" : "closed";
}

/**
 * relativeTime says how long ago iso was, as of now (ms since the epoch),
 * short enough for the sidebar: "now", "5 min", "3 h", "yesterday",
 * "4 d", then the date. "" for a missing or unreadable time.
 */
export function relativeTime(iso: string | undefined, now: number): string {
  if (!iso || iso.startsWith("0001-")) return "";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return "now";
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h`;
  const d = Math.floor(h / 24);
  if (d === 1) return "yesterday";
  if (d < 7) return `${d} d`;
  return new Date(t).toISOString().slice(0, 10);
}

/** lastActive is the time a chat was last active: its newest message, else when it started. */
export function lastActive(s: Pick<JournalSession, "last_activity" | "created_at">): string {
  return s.last_activity && !s.last_activity.startsWith("0001-") ? s.last_activity : s.created_at;
}

/** needsAttention is true when a chat has calls only the person can say the outcome of. */
export function needsAttention(s: Pick<JournalSession, "unreconciled">): boolean {
  return (s.unreconciled ?? 0) > 0;
}

/** coworkerName is the name of the coworker whose bundle id is id, from the coworkers loaded; the id when it is not among them. */
export function coworkerName(id: string, coworkers: { id: string; name: string }[] | null | undefined): string {
  return coworkers?.find((c) => c.id === id)?.name || id;
}
