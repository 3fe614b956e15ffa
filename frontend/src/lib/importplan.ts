// Display helpers for an import preview (Go: servers.ImportPlan,
// docs/servers.md#import). Pure functions, so the words the dialog shows
// are tested without a window.
import type { ImportItem, ImportPlan } from "./types";

/** The number of entries ApplyImport adds (Go: ImportPlan.Added). */
export function addedCount(p: ImportPlan): number {
  return (p.items ?? []).filter((it) => it.action === "add").length;
}

/** What importing the entry does, in words. */
export function actionLabel(it: ImportItem): string {
  switch (it.action) {
    case "add":
      return it.disabled ? "add, off" : "add";
    case "same":
      return "already there";
    default:
      return "skip";
  }
}

/** The transport as people name it. */
export function transportLabel(t: string): string {
  switch (t) {
    case "stdio":
      return "stdio";
    case "streamable_http":
      return "HTTP";
    case "sse":
      return "SSE";
    default:
      return t || "—";
  }
}

/**
 * A "PATH:LINE: ..." message about the imported file, with the path (shown
 * once at the top of the preview) replaced by "line": "line 4: server ...".
 * Messages about other files are left as they are.
 */
export function aboutLine(msg: string, from: string): string {
  if (from && msg.startsWith(from + ":")) return "line " + msg.slice(from.length + 1);
  return msg;
}

/** The last element of a path, for "/" and "\" alike. */
export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return i >= 0 ? path.slice(i + 1) : path;
}

/** True when the item has more to say than its row: why, inputs, values, notes. */
export function hasDetails(it: ImportItem): boolean {
  return !!it.why || (it.inputs?.length ?? 0) > 0 || (it.secrets?.length ?? 0) > 0 || (it.env_keys?.length ?? 0) > 0 || (it.notices?.length ?? 0) > 0;
}

/** A secret's place in words: "GITHUB_TOKEN (environment)", "Authorization (header)". */
export function secretLabel(field: string): string {
  if (field.startsWith("env.")) return `${field.slice(4)} (environment)`;
  if (field.startsWith("headers.")) return `${field.slice(8)} (header)`;
  return field;
}

/** Input ids of the secrets ticked to move while there is no keychain: the import cannot write them. */
export function blockedSecrets(p: ImportPlan, keep: Record<string, boolean>): string[] {
  if (!p.no_keychain) return [];
  return (p.items ?? []).flatMap((it) => (it.secrets ?? []).map((s) => s.input)).filter((id) => !keep[id]);
}
