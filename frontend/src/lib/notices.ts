// Banner notices: what is shown, for how long, and which ones belong to the
// view that raised them. Pure functions over arrays, so the rules are tested
// without a window (notices.test.ts); state.svelte.ts holds the array.
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
}

/** How long an info notice stays. Warnings and errors stay until dismissed. */
export const INFO_TTL_MS = 6000;

/** At most this many banners are shown; the oldest go first. */
export const MAX_NOTICES = 4;

let lastId = 0;

/**
 * addNotice returns list with n added at the end. A notice with the same
 * level and message replaces the earlier one (no stacking of repeats), and
 * so does one with the same key (n.key, e.g. "servers"); a keyed notice
 * with no message only removes the one with its key. Info notices get an
 * expiry INFO_TTL_MS after now.
 */
export function addNotice(list: ShownNotice[], n: Notice, scope: NoticeScope, now: number): ShownNotice[] {
  const rest = list.filter((m) => !(m.level === n.level && m.message === n.message) && !(n.key && m.key === n.key));
  if (n.key && !n.message) return rest;
  const shown: ShownNotice = {
    level: n.level,
    message: n.message,
    ...(n.key ? { key: n.key } : {}),
    id: ++lastId,
    scope,
    expires: n.level === "info" ? now + INFO_TTL_MS : 0,
  };
  return [...rest, shown].slice(-MAX_NOTICES);
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
