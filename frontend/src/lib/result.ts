// What a tool card shows of a result: the blocks the tool returned, in
// order (docs/mcp.md#results), then its structured value pretty-printed.
// Pure functions, so they are unit-tested without a UI.
import type { ResultBlock } from "./types";
import { progressText, type ProgressItem } from "./progress";

/** An image of a card: its data: URL when the app sent one (a live call), else only its size (history). */
export interface CardImage {
  mime_type: string;
  url?: string;
  bytes?: number;
}

export type ResultPart =
  | { kind: "text"; text: string }
  | { kind: "image"; mime: string; url?: string; bytes?: number }
  | { kind: "audio"; mime: string; bytes: number }
  | { kind: "link"; uri: string; name: string; title?: string; description?: string; mime?: string; bytes?: number }
  | { kind: "resource"; uri: string; mime?: string; text?: string; bytes?: number }
  | { kind: "json"; text: string }
  | { kind: "other"; type: string };

/** The result fields of a card. */
export interface CardResult {
  result?: string; // the text the model got
  structured?: unknown;
  content?: ResultBlock[];
  images?: CardImage[];
}

/** Only PNG and JPEG data: URLs are shown (the harness forwards no other image). */
export function safeImageURL(url: string | undefined): string | undefined {
  return url && /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]*$/.test(url) ? url : undefined;
}

/** Pretty-prints a result that is JSON (so long lines break between values); other text as is. */
export function formatResult(text: string): string {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return text;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return text;
  }
}

function sameJSON(text: string, v: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(v);
  } catch {
    return false;
  }
}

/**
 * resultParts lists what a card shows: each block in order (an image with
 * its picture when the app sent it), then the structured value as
 * indented JSON. A result without blocks (a native tool) shows its text,
 * unless that is just the structured JSON.
 */
export function resultParts(r: CardResult): ResultPart[] {
  const parts: ResultPart[] = [];
  let image = 0;
  for (const b of r.content ?? []) {
    switch (b.type) {
      case "text":
        parts.push({ kind: "text", text: b.text ?? "" });
        break;
      case "image": {
        const im = r.images?.[image++];
        parts.push({ kind: "image", mime: b.mime_type ?? im?.mime_type ?? "", url: safeImageURL(im?.url), bytes: b.bytes ?? im?.bytes });
        break;
      }
      case "audio":
        parts.push({ kind: "audio", mime: b.mime_type ?? "", bytes: b.bytes ?? 0 });
        break;
      case "resource_link":
        parts.push({ kind: "link", uri: b.uri ?? "", name: b.name ?? "", title: b.title, description: b.description, mime: b.mime_type, bytes: b.bytes });
        break;
      case "resource":
        parts.push({ kind: "resource", uri: b.uri ?? "", mime: b.mime_type, text: b.bytes ? undefined : (b.text ?? ""), bytes: b.bytes });
        break;
      default:
        parts.push({ kind: "other", type: b.type });
    }
  }
  const hasStructured = r.structured !== undefined && r.structured !== null;
  if (!r.content?.length && r.result && !(hasStructured && sameJSON(r.result, r.structured))) {
    parts.push({ kind: "text", text: formatResult(r.result) });
  }
  if (hasStructured) parts.push({ kind: "json", text: JSON.stringify(r.structured, null, 2) });
  return parts;
}

/** A size in bytes as "300 bytes", "2.0 KB" or "1.5 MB". */
export function formatBytes(n: number | undefined): string {
  if (n === undefined) return "";
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A card's one-line summary is clipped to this many characters. */
export const SummaryChars = 120;

/**
 * summaryLine is what a collapsed tool card shows after its status, tool
 * and duration (docs/app.md#long-content): the first non-empty line of the
 * error, else of the result's first text or JSON part (a JSON object
 * squeezed onto one line), else a word for its first block, else the last
 * progress line; clipped to SummaryChars with "…". "" when there is none.
 */
export function summaryLine(r: CardResult & { error?: string; progress?: ProgressItem[] }): string {
  const line = (s: string) => s.split("\n").map((l) => l.trim()).find(Boolean) ?? "";
  let s = "";
  if (r.error) s = line(r.error);
  else {
    const parts = resultParts(r);
    const text = parts.find((p) => p.kind === "text" || p.kind === "json");
    if (text && "text" in text && text.text) {
      s = line(text.kind === "json" || /^\s*[[{]/.test(text.text) ? squeeze(text.text) : text.text);
    } else if (parts.length) {
      const p = parts[0];
      s = p.kind === "image" || p.kind === "audio" ? `${p.kind} (${p.mime})` : p.kind === "link" ? `link ${p.title || p.name || p.uri}` : p.kind === "resource" ? `resource ${p.uri}` : p.kind === "other" ? `${p.type} block` : "";
    } else if (r.progress?.length) s = progressText(r.progress[r.progress.length - 1]);
  }
  return s.length > SummaryChars ? `${s.slice(0, SummaryChars - 1)}…` : s;
}

function squeeze(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}
