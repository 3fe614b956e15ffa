// The shapes of budgets and token counts (docs/limits.md#budgets): the
// default limits of Settings → Limits, a coworker's own limits in the
// editor, and the tokens Activity shows, with how they are read and
// written. types.check.ts holds the shapes to the Go structs.

/** Settings' default limits, each 0 for none (Go: settings.Limits, settings.json "limits"). */
export interface Limits {
  tokens_per_run: number;
  tokens_per_day: number;
  tool_calls_per_run: number;
}

/** A coworker's own limits, front matter "limits" (Go: bundle.Limits); 0: the default of Settings applies. */
export interface DraftLimits {
  tokensPerRun: number;
  tokensPerDay: number;
  toolCallsPerRun: number;
}

/** Tokens of model responses added up (Go: journal.UsageTotal). */
export interface UsageTotal {
  input_tokens: number;
  output_tokens: number;
  /** How many model responses they came from. */
  responses: number;
}

/** One coworker's tokens today and over the last days (Go: journal.CoworkerUsage). */
export interface CoworkerUsage {
  coworker: string;
  today: UsageTotal;
  days: UsageTotal;
}

/** Activity's tokens per coworker (Go: app.CoworkerTokens); days are UTC. */
export interface CoworkerTokens {
  /** The UTC day counted as today, "2006-01-02". */
  today: string;
  /** How many days `days` covers, today included. */
  days: number;
  coworkers: CoworkerUsage[] | null;
}

/** The three limits, in the order the screens show them. */
export const LIMIT_KEYS = [
  { key: "tokens_per_run", draft: "tokensPerRun", label: "Tokens per run", unit: "tokens", hint: "input and output tokens of one run (a chat, or a scheduled run), as the model reports them" },
  { key: "tokens_per_day", draft: "tokensPerDay", label: "Tokens per day", unit: "tokens", hint: "all of a coworker's runs in one day (UTC)" },
  { key: "tool_calls_per_run", draft: "toolCallsPerRun", label: "Tool calls per run", unit: "tool calls", hint: "the tool calls of one run" },
] as const satisfies readonly { key: keyof Limits; draft: keyof DraftLimits; label: string; unit: string; hint: string }[];

/** The largest limit (Go: bundle.MaxLimit). */
export const MAX_LIMIT = 1_000_000_000;

/**
 * parseLimit reads what a person typed in a limit's field: "" is 0 (no
 * limit of its own); digits with optional thousands separators ("50,000",
 * "50 000") are the number. Anything else (a fraction, a sign, a letter)
 * is an error naming the field and the fix.
 */
export function parseLimit(label: string, text: string): { value: number; error: string } {
  const t = text.trim().replace(/[,\s_\u00a0\u202f]/g, "");
  if (t === "") return { value: 0, error: "" };
  if (!/^\d+$/.test(t)) {
    const what = /^-/.test(t) ? "is below 0" : /^\d*[.]\d+$/.test(t) ? "is not a whole number" : "is not a number";
    return { value: 0, error: `${label}: "${text.trim()}" ${what}. Write a whole number of ${unitOf(label)} from 0 to ${MAX_LIMIT.toLocaleString("en-US")}, or leave it empty.` };
  }
  const n = Number(t);
  if (n > MAX_LIMIT) {
    return { value: 0, error: `${label}: ${n.toLocaleString("en-US")} is over the largest limit, ${MAX_LIMIT.toLocaleString("en-US")}.` };
  }
  return { value: n, error: "" };
}

function unitOf(label: string): string {
  return LIMIT_KEYS.find((k) => k.label === label)?.unit ?? "tokens";
}

/** "50,000" for 50000; "" for 0 (an empty field). */
export function limitText(n: number | undefined): string {
  return n ? n.toLocaleString("en-US") : "";
}

/** A token count in few characters: 950, 12.3k, 4.5M. */
export function tokensShort(n: number): string {
  if (n < 1000) return String(n);
  if (n < 999_500) return `${trim1(n / 1000)}k`;
  return `${trim1(n / 1_000_000)}M`;
}

function trim1(x: number): string {
  return (x >= 100 ? Math.round(x).toString() : x.toFixed(1).replace(/\.0$/, ""));
}

/** The tokens of a run or a day in words: "1,472 tokens (1,240 in, 232 out)". */
export function tokensLine(u: UsageTotal): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return `${n(u.input_tokens + u.output_tokens)} tokens (${n(u.input_tokens)} in, ${n(u.output_tokens)} out)`;
}
