// The chat composer's "/" commands: MCP prompts of the chat's providers
// (docs/app.md#prompts). Pure helpers; Chat.svelte and PromptPicker use them.
import type { ChatPrompt } from "./types";

/** MaxShown bounds the picker's list; typing narrows it. */
export const MaxShown = 8;

/**
 * slashQuery returns what follows "/" when the composer holds only a
 * slash command being typed ("/", "/kit.br"), else null: the "/" must be
 * the first character and nothing after it may be a space or a newline.
 */
export function slashQuery(text: string): string | null {
  const m = /^\/(\S*)$/.exec(text);
  return m ? m[1] : null;
}

/**
 * filterPrompts keeps the prompts whose name or title holds query (case
 * folded), best first: a name or its part after the namespace that starts
 * with query, then a title that starts with it, then any other match; ties
 * keep the given (name) order. At most MaxShown are returned.
 */
export function filterPrompts(prompts: ChatPrompt[], query: string): ChatPrompt[] {
  const q = query.toLowerCase();
  const rank = (p: ChatPrompt): number => {
    const name = p.name.toLowerCase();
    const local = name.slice(name.indexOf(".") + 1);
    const title = (p.title || "").toLowerCase();
    if (name.startsWith(q) || local.startsWith(q)) return 0;
    if (title.startsWith(q)) return 1;
    if (name.includes(q) || title.includes(q)) return 2;
    return -1;
  };
  return prompts
    .map((p, i) => ({ p, i, r: rank(p) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .slice(0, MaxShown)
    .map((x) => x.p);
}

/** moveSelection moves the highlighted row by delta, wrapping; -1 when the list is empty. */
export function moveSelection(current: number, delta: number, length: number): number {
  if (length <= 0) return -1;
  return (((current + delta) % length) + length) % length;
}

/** missingRequired names the required arguments that have no value (blank counts as none). */
export function missingRequired(p: ChatPrompt, values: Record<string, string>): string[] {
  return (p.arguments ?? []).filter((a) => a.required && !(values[a.name] ?? "").trim()).map((a) => a.name);
}

/** promptArgs is the values to send: blank optional arguments are left out. */
export function promptArgs(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v.trim() !== "") out[k] = v;
  return out;
}
