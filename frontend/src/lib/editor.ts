// The coworker editor's rules (components/CoworkerEditor.svelte,
// docs/app.md#coworker-editor), as pure functions over a Draft, so they
// are tested without a window: which tools are selected and under which
// policy, the providers' groups, the problems next to each field, and
// which coworkers use a provider.
import type { CoworkerList } from "./types";
import type { CatalogTool, Draft, DraftProblem, Effect, ToolPolicy, ToolProvider } from "./types_editor";

/** The Ask / Allow / Never choices and the policy each is written as. */
export const POLICIES: { value: ToolPolicy; label: string }[] = [
  { value: "ask", label: "Ask" },
  { value: "allow", label: "Allow" },
  { value: "deny", label: "Never" },
];

/** A draft with nothing in it (a blank coworker before its name). */
export function emptyDraft(): Draft {
  return { id: "", name: "", description: "", version: "1.0.0", instructions: "", tools: [], wholeProviders: [], policy: {}, skills: null, sampling: [], model: "", folder: "", requiresSandbox: false };
}

/** A copy of d with its lists and maps non-null, for editing. */
export function normalize(d: Draft): Draft {
  return { ...d, tools: [...(d.tools ?? [])], wholeProviders: [...(d.wholeProviders ?? [])], policy: { ...(d.policy ?? {}) },
    skills: d.skills === null || d.skills === undefined ? null : [...d.skills], sampling: [...(d.sampling ?? [])], otherKeys: [...(d.otherKeys ?? [])] };
}

/** The namespace of a qualified name ("kit.echo" → "kit"). */
export function namespaceOf(name: string): string {
  const i = name.indexOf(".");
  return i < 0 ? name : name.slice(0, i);
}

/** True when the draft selects the tool (by name, or its whole provider). */
export function selected(d: Draft, name: string): boolean {
  return (d.tools ?? []).includes(name) || (d.wholeProviders ?? []).includes(namespaceOf(name));
}

/**
 * The policy a selected tool runs under: its own entry, else the
 * draft's "*" entry, else ask (docs/consent.md).
 */
export function policyOf(d: Draft, name: string): ToolPolicy {
  const p = d.policy ?? {};
  const v = p[name] ?? p["*"] ?? "ask";
  return v === "allow" || v === "deny" ? v : "ask";
}

/**
 * setPolicy returns the draft with the tool's policy set: an entry only
 * when it differs from what the tool would have without one (the "*"
 * entry, else ask), so a coworker whose tools all ask keeps no policy.
 */
export function setPolicy(d: Draft, name: string, p: ToolPolicy): Draft {
  const policy = { ...(d.policy ?? {}) };
  delete policy[name];
  const fallback = policy["*"] ?? "ask";
  if (p !== fallback) policy[name] = p;
  return { ...d, policy };
}

/**
 * setTool returns the draft with the tool selected or not. Unselecting
 * drops its policy entry, and a sampling entry of a provider none of
 * whose tools stay selected (the loader refuses both, docs/bundles.md).
 */
export function setTool(d: Draft, name: string, on: boolean): Draft {
  const tools = (d.tools ?? []).filter((t) => t !== name);
  if (on) tools.push(name);
  const out: Draft = { ...d, tools };
  if (!on) {
    const policy = { ...(d.policy ?? {}) };
    delete policy[name];
    out.policy = policy;
  }
  return dropUnusedSampling(out);
}

/** setTools selects (or unselects) every tool of names at once, in their order. */
export function setTools(d: Draft, names: string[], on: boolean): Draft {
  let out = d;
  for (const n of names) if (selected(out, n) !== on) out = setTool(out, n, on);
  return out;
}

/** The draft without sampling entries of providers it selects no tool of. */
function dropUnusedSampling(d: Draft): Draft {
  const used = new Set([...(d.tools ?? []).map(namespaceOf), ...(d.wholeProviders ?? [])]);
  const sampling = (d.sampling ?? []).filter((ns) => used.has(ns));
  return sampling.length === (d.sampling ?? []).length ? d : { ...d, sampling };
}

/** The tools of a provider a coworker can select (those whose names a model can take). */
export function selectable(p: ToolProvider): CatalogTool[] {
  return (p.tools ?? []).filter((t) => !t.refused);
}

/** How many of a provider's selectable tools the draft selects: "all", "some" or "none". */
export function providerState(d: Draft, p: ToolProvider): "all" | "some" | "none" {
  const tools = selectable(p);
  const n = tools.filter((t) => selected(d, t.name)).length;
  if (n === 0) return "none";
  return n === tools.length ? "all" : "some";
}

/**
 * listWhole turns the whole-provider selection (tools.json version 1) of
 * the providers the catalog lists into their tools by name, so the draft
 * can be saved as version 3 and its tools picked one by one; providers
 * the catalog lacks stay whole.
 */
export function listWhole(d: Draft, catalog: ToolProvider[]): Draft {
  const whole = d.wholeProviders ?? [];
  if (!whole.length) return d;
  const tools = [...(d.tools ?? [])];
  const left: string[] = [];
  for (const ns of whole) {
    const p = catalog.find((x) => x.namespace === ns && !x.error);
    if (!p) {
      left.push(ns);
      continue;
    }
    for (const t of selectable(p)) if (!tools.includes(t.name)) tools.push(t.name);
  }
  return { ...d, tools, wholeProviders: left };
}

/**
 * The selected tools the catalog does not offer (their provider is gone,
 * did not start, or no longer lists them): shown on their own so they can
 * be seen and removed.
 */
export function missingTools(d: Draft, catalog: ToolProvider[]): string[] {
  const offered = new Set<string>();
  for (const p of catalog) for (const t of p.tools ?? []) offered.add(t.name);
  return (d.tools ?? []).filter((t) => !offered.has(t));
}

/** The effect of a tool in words, and its pill's class. */
export function effectLabel(e: Effect): { text: string; cls: string; title: string } {
  switch (e) {
    case "read_only":
      return { text: "reads only", cls: "read_only", title: "It says it only reads: it changes nothing." };
    case "changes_data":
      return { text: "changes data", cls: "idempotent_write", title: "It says it changes data, and destroys none." };
    case "destructive":
      return { text: "can delete data", cls: "non_idempotent_write", title: "It may delete or overwrite data (it says so, or says nothing against it)." };
    default:
      return { text: "no hints", cls: "", title: "It says nothing about what it changes: treat it as able to change anything." };
  }
}

/** The heading of a provider's group of tools. */
export function providerHeading(p: ToolProvider): string {
  switch (p.kind) {
    case "builtin":
      return `${p.namespace} (built in)`;
    case "extension":
      return `${p.title} (extension ${p.namespace})`;
    case "agent":
      return `${p.title === p.namespace ? p.namespace : `${p.title} (${p.namespace})`} (A2A agent)`;
    default:
      return `${p.title === p.namespace ? p.namespace : `${p.title} (${p.namespace})`} (MCP server${p.source ? ` from ${p.source}` : ""})`;
  }
}

/** The problems of a field ("" for those in none). */
export function problemsOf(problems: DraftProblem[] | null | undefined, field: string): DraftProblem[] {
  return (problems ?? []).filter((p) => (p.field || "") === field);
}

/** The fields the editor shows problems next to. */
export const EDITOR_FIELDS = ["id", "name", "description", "version", "instructions", "tools", "policy", "skills", "sampling", "model", "folder", "requiresSandbox", "otherKeys"];

/** The problems in no field the editor shows (a missing file, a link out): shown at the top. */
export function generalProblems(problems: DraftProblem[] | null | undefined): DraftProblem[] {
  return (problems ?? []).filter((p) => !EDITOR_FIELDS.includes(p.field || ""));
}

/** A problem as `openworker check` prints it: "FILE:LINE:COL: MESSAGE; FIX" (the file by its last two parts). */
export function problemText(p: DraftProblem): string {
  const parts = (p.file || "").split(/[\\/]/).filter(Boolean);
  const file = parts.slice(-2).join("/");
  const where = file ? `${file}${p.line ? `:${p.line}:${p.col}` : ""}: ` : "";
  return `${where}${p.message}${p.fix ? `; ${p.fix}` : ""}`;
}

/** True when two drafts differ in anything that would be saved. */
export function changed(a: Draft, b: Draft): boolean {
  return JSON.stringify(normalize(a)) !== JSON.stringify(normalize(b));
}

/**
 * The coworkers that use a provider: those of the list whose resolved
 * tools come from it (Go: ResolvedToolInfo.provider "mcp:NS" or
 * "a2a:NS"), by name.
 */
export function usersOf(list: CoworkerList | null | undefined, ns: string): { id: string; name: string }[] {
  const out: { id: string; name: string }[] = [];
  for (const c of list?.coworkers ?? []) {
    if ((c.tools ?? []).some((t) => t.provider === `mcp:${ns}` || t.provider === `a2a:${ns}` || (t.provider === "native" && namespaceOf(t.name) === ns))) {
      out.push({ id: c.id, name: c.name || c.id });
    }
  }
  return out;
}

/** "used by Ann and Bob" / "used by no coworker" for a provider's row. */
export function usedByText(users: { name: string }[]): string {
  if (!users.length) return "No coworker uses it yet.";
  const names = users.map((u) => u.name);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `Used by ${list}.`;
}

/** The tools of providers, by name, that a coworker can select: what "Give these tools to…" preselects. */
export function toolsOfProviders(catalog: ToolProvider[], namespaces: string[]): string[] {
  return catalog.filter((p) => namespaces.includes(p.namespace)).flatMap((p) => selectable(p).map((t) => t.name));
}

/** The name a new coworker for a provider gets: the server's or extension's own, its first letter capitalised. */
export function giveName(title: string): string {
  const t = title.trim();
  return t ? t[0].toUpperCase() + t.slice(1) : "New coworker";
}
