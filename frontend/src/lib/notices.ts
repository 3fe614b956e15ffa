// Notices (toasts in a fixed overlay, components/Notices.svelte): what is
// shown, for how long, which ones are visible and which belong to the view
// that raised them. Pure functions over arrays, so the rules are tested
// without a window (notices.test.ts); state.svelte.ts holds the array.
// The overlay never takes part in the page's layout: a notice coming or
// going moves nothing (docs/servers.md#notices for keyed notices).
import type { Notice } from "./types";

/**
 * Scope of a notice: "app" notices (problems found at start, Go events)
 * stay until dismissed; "view" notices (an action on the current screen
 * failed) go away when the person changes screens.
 */
export type NoticeScope = "app" | "view";

export interface ShownNotice extends Notice {
  id: number;
  scope: NoticeScope;
  /** Milliseconds since the epoch after which the notice goes; 0 = never. */
  expires: number;
  /** A button on the toast (e.g. "Undo" after a chat is hidden); clicking it runs it and dismisses the toast. */
  action?: NoticeAction;
}

/** NoticeAction is a toast's one button. */
export interface NoticeAction {
  label: string;
  run: () => void;
}

/** How long an info notice stays. Warnings and errors stay until dismissed. */
export const INFO_TTL_MS = 6000;

/** At most this many notices are kept; beyond it the oldest go first. */
export const MAX_NOTICES = 20;

/** At most this many toasts are visible; the rest are collapsed into "+K more". */
export const MAX_VISIBLE = 3;

export { realClock, type Clock } from "./clock";

const rank: Record<Notice["level"], number> = { error: 2, warning: 1, info: 0 };

/**
 * visibleNotices splits list into the toasts shown and the number collapsed
 * into "+K more". Unless all are wanted, at most max are shown: errors before
 * warnings before info, newer before older, so an error is never hidden
 * behind info toasts; the shown ones keep the order they came in.
 */
export function visibleNotices(list: ShownNotice[], all: boolean, max = MAX_VISIBLE): { shown: ShownNotice[]; hidden: number } {
  if (all || list.length <= max) return { shown: list, hidden: 0 };
  const keep = new Set([...list].sort((a, b) => rank[b.level] - rank[a.level] || b.id - a.id).slice(0, max).map((m) => m.id));
  return { shown: list.filter((m) => keep.has(m.id)), hidden: list.length - max };
}

let lastId = 0;

/**
 * addNotice returns list with n added at the end. A notice with the same
 * level and message replaces the earlier one (no stacking of repeats), and
 * so does one with the same key (n.key, e.g. "servers"); a keyed notice
 * with no message only removes the one with its key. Info notices get an
 * expiry INFO_TTL_MS after now.
 */
export function addNotice(list: ShownNotice[], n: Notice & { action?: NoticeAction }, scope: NoticeScope, now: number): ShownNotice[] {
  const rest = list.filter((m) => !(m.level === n.level && m.message === n.message) && !(n.key && m.key === n.key));
  if (n.key && !n.message) return rest;
  const shown: ShownNotice = {
    level: n.level,
    message: n.message,
    ...(n.key ? { key: n.key } : {}),
    ...(n.action ? { action: n.action } : {}),
    id: ++lastId,
    scope,
    expires: n.level === "info" ? now + INFO_TTL_MS : 0,
  };
  return [...rest, shown].slice(-MAX_NOTICES);
}

/**
 * retimeNotices gives each info notice of list a full INFO_TTL_MS from now:
 * they were held while a modal dialog was open (lib/modals.svelte.ts), so
 * they go only after having been shown that long.
 */
export function retimeNotices(list: ShownNotice[], now: number): ShownNotice[] {
  return list.map((m) => (m.level === "info" && m.expires > 0 ? { ...m, expires: now + INFO_TTL_MS } : m));
}

/** dismissNotice removes the notice with id. */
export function dismissNotice(list: ShownNotice[], id: number): ShownNotice[] {
  return list.filter((m) => m.id !== id);
}

/** clearViewNotices removes the notices of the screen being left. */
export function clearViewNotices(list: ShownNotice[]): ShownNotice[] {
  return list.filter((m) => m.scope !== "view");
}

/** expireNotices removes the notices whose time is up at now. */
export function expireNotices(list: ShownNotice[], now: number): ShownNotice[] {
  return list.filter((m) => m.expires === 0 || m.expires > now);
}
