// Shapes of the coworker editor's values (Go: app/editor.go,
// app/editor_tools.go, harness/bundle.Draft; docs/app.md#coworker-editor).
// types.check.ts checks their fields against the generated models.

import type { DraftLimits, Limits } from "./limits";

/** A consent policy of a tool: the editor's Ask / Allow / Never. */
export type ToolPolicy = "ask" | "allow" | "deny";

/** The editable fields of a coworker (Go: bundle.Draft; JSON names as its tags). */
export interface Draft {
  id: string;
  name: string;
  description: string;
  version: string;
  instructions: string;
  /** Selected tools by qualified name, in order (tools.json version 3). */
  tools: string[] | null;
  /** Providers a tools.json version 1 selects whole; while set, tools is empty. */
  wholeProviders?: string[] | null;
  /** Qualified tool name, or "*", to a policy. */
  policy: Record<string, string> | null;
  /** Front matter "skills"; null: every skill folder loads. */
  skills: string[] | null;
  sampling: string[] | null;
  model: string;
  folder: string;
  requiresSandbox: boolean;
  /** Front matter "limits"; 0 (or absent): the default of Settings (docs/limits.md#budgets). */
  limits?: DraftLimits;
  /** Front matter keys a Draft does not hold (a misspelling, a newer key); Save keeps exactly these. */
  otherKeys?: string[] | null;
}

/** A problem of a draft as `openworker check` reports it, and the field it is in. */
export interface DraftProblem {
  /** The Draft field ("name", "tools", "policy", ...); "" when none. */
  field: string;
  file: string;
  line: number;
  col: number;
  message: string;
  fix: string;
}

/** A skill folder of a coworker on disk. */
export interface DraftSkill {
  name: string;
  description: string;
}

/** A coworker being edited (Go: app.CoworkerDraft). */
export interface CoworkerDraft {
  draft: Draft;
  /** The bundle folder; "" for a coworker not saved yet. */
  dir: string;
  /** True until the first save creates the folder. */
  new: boolean;
  /** The folder a linked coworker's entry points at; "" when not linked. */
  linked_to: string;
  /** Why the coworker does not load (as on disk or as edited); empty when it does. */
  problems: DraftProblem[] | null;
  /** Its skill folders on disk (coworker/skills). */
  skills: DraftSkill[] | null;
  /** The template it was made from ("" for blank or an existing coworker). */
  template: string;
  /** Settings' default limits: what each limit left at 0 takes. */
  default_limits?: Limits;
}

/** A starting point of "New coworker" (Go: app.CoworkerTemplate): an example bundle. */
export interface CoworkerTemplate {
  id: string;
  name: string;
  description: string;
  tools: string[] | null;
  /** It works on a folder the person picks (its tools include files.*). */
  needs_folder: boolean;
}

/** What declares a tool's effect (Go: harness.Effect*). */
export type Effect = "read_only" | "changes_data" | "destructive" | "unknown";

/** A tool a provider offers now (Go: harness.CatalogTool). */
export interface CatalogTool {
  name: string;
  title?: string;
  description: string;
  effect: Effect;
  idempotent?: boolean | null;
  open_world?: boolean | null;
  /** Why it cannot be selected (a name the model cannot take); absent when it can. */
  refused?: string;
}

/** A provider the tools are picked from (Go: app.ToolProvider). */
export interface ToolProvider {
  namespace: string;
  provider: string;
  kind: "builtin" | "server" | "extension" | "agent";
  title: string;
  source: string;
  tools: CatalogTool[] | null;
  error: string;
}

/** What Save did (Go: app.SavedCoworker). */
export interface SavedCoworker {
  dir: string;
  id: string;
  name: string;
  /** Where the files were written: the link's target for a linked coworker. */
  written: string;
}

/** A coworker moved to the trash (Go: app.TrashedCoworker): Restore takes it back. */
export interface TrashedCoworker {
  id: string;
  name: string;
  /** Opaque to the UI: what RestoreCoworker takes. */
  token: string;
  /** Where it went (the OS trash or the trash folder), for the notice. */
  where: string;
}

/** What Give tools did (Go: app.GaveTools). */
export interface GaveTools {
  id: string;
  name: string;
  dir: string;
  created: boolean;
  /** The tools it has now that it did not have. */
  added: string[] | null;
}

/** An MCP server of the servers file in use (Go: app.ServerInUse). */
export interface ServerInUse {
  namespace: string;
  name: string;
  /** FILE:LINE of its entry. */
  source: string;
  /** The host its calls go to; "" on this computer. */
  remote: string;
  /** Why its entry is off; "" when it works. */
  broken: string;
}
