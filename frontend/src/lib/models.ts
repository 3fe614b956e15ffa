// The Settings model picker's rules (docs/app.md#model-picker): whether a
// typed model name is one the server lists, whether a base URL is on this
// computer (listed on opening Settings; others only on a click), and what
// Test connection says.
import type { ConnectionTest } from "./types";

const dated = /-[0-9]{8}$/;

/**
 * listed reports whether name is one of the server's models as the server
 * takes it (Go: model.Listing.Has): the exact ID; "NAME" for Ollama's
 * "NAME:latest" (and back); an Anthropic alias without the date suffix
 * ("claude-sonnet-4-5" for "claude-sonnet-4-5-20250929"); "models/NAME".
 */
export function listed(models: readonly string[] | null, name: string): boolean {
  const n = name.trim();
  if (!n) return false;
  const untag = (s: string) => s.replace(/:latest$/, "");
  return (models ?? []).some((id) =>
    id === n || id === `models/${n}` || untag(id) === untag(n) || (dated.test(id) && id.replace(dated, "") === n));
}

/** The listed ID a typed name stands for, or "" (for the picker's select). */
export function listedAs(models: readonly string[] | null, name: string): string {
  return (models ?? []).find((id) => listed([id], name)) ?? "";
}

/** isLocal: the URL's host is this computer (localhost, 127.0.0.0/8, ::1). */
export function isLocal(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
}

/** connectionText is the one line Test connection shows. */
export function connectionText(c: ConnectionTest): string {
  if (!c.ok) return `Connection failed: ${c.error}${c.advice ? `${/[.!?:]$/.test(c.error) ? "" : "."} ${c.advice}` : ""}`;
  let s = c.latency_ms < 1 ? "Connected in under 1 ms" : `Connected in ${c.latency_ms} ms`;
  if (c.via === "chat") return `${s} (the server has no models list; a 1-token request to ${c.model} answered).`;
  const n = c.models?.length ?? 0;
  if (c.model && n > 0 && !c.listed) s += `, but "${c.model}" is not among the ${n === 1 ? "1 model" : `${n} models`} it lists`;
  return s + ".";
}
