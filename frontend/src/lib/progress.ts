// What a tool card shows for a progress notification (docs/app.md#long-content).
// Values come from the tool or MCP server: untrusted, so clamped and clipped.

/** A progress line is clipped to this many characters (a message may be 4 KB, docs/limits.md). */
export const ProgressChars = 200;

/** A progress item as the chat keeps it: the event's text and data ({"progress":N,"total":M}). */
export interface ProgressItem {
  text: string;
  data?: unknown;
}

/** The bar of a progress item: value in [0, max], max > 0; absent without a usable total. */
export interface ProgressBar {
  value: number;
  max: number;
}

// C0/C1 controls, bidi overrides and isolates, zero-width marks.
const unsafe = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER ? v : undefined;
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

function clip(s: string): string {
  const t = s.replace(unsafe, " ").replace(/\s+/g, " ").trim();
  const cs = Array.from(t);
  return cs.length > ProgressChars ? `${cs.slice(0, ProgressChars - 1).join("")}…` : t;
}

function values(p: ProgressItem): { progress?: number; total?: number } {
  const d = p.data;
  if (!d || typeof d !== "object" || Array.isArray(d)) return {};
  const r = d as Record<string, unknown>;
  const total = num(r.total);
  return { progress: num(r.progress), total: total !== undefined && total > 0 ? total : undefined };
}

/** progressBar is the determinate bar of p: progress clamped to [0, total]; undefined without a total > 0 and a progress. */
export function progressBar(p: ProgressItem): ProgressBar | undefined {
  const { progress, total } = values(p);
  if (total === undefined || progress === undefined) return undefined;
  return { value: Math.min(progress, total), max: total };
}

/**
 * progressText is the line shown for p: its message (controls and bidi
 * marks made spaces, one line, clipped to ProgressChars with "…") if any;
 * else "N of M (P%)" when a total is known (N clamped to M); else "step N";
 * else "working…".
 */
export function progressText(p: ProgressItem): string {
  const m = clip(typeof p.text === "string" ? p.text : "");
  if (m) return m;
  const bar = progressBar(p);
  if (bar) return `${fmt(bar.value)} of ${fmt(bar.max)} (${Math.floor((bar.value / bar.max) * 100)}%)`;
  const { progress } = values(p);
  return progress !== undefined ? `step ${fmt(progress)}` : "working…";
}
