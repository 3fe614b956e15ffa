// Shapes of an import of agents and skills (Go: agentimport.Plan,
// app.AgentImportPreview, app.AgentImportResult; docs/import-agents.md).
import type { CoworkerList, ImportPlan } from "./types";

/** The kinds of source an import reads (Go: agentimport.Kind); "" for none. */
export type AgentSourceKind =
  | "claude-code-agent"
  | "vscode-agent"
  | "vscode-chatmode"
  | "goose-recipe"
  | "agent-skill"
  | "claude-code-plugin"
  | "openworker-export"
  | "";

export interface AgentMapping {
  from: string;
  to: string[] | null;
  verified: boolean;
  note?: string;
}

export interface AgentUnmapped {
  tool: string;
  reason: string;
}

export interface AgentIgnored {
  field: string;
  line?: number;
  reason: string;
}

/** One coworker the import makes (Go: agentimport.Coworker). */
export interface ImportedCoworker {
  id: string;
  name: string;
  description: string;
  into?: boolean;
  source: string;
  kind: AgentSourceKind;
  tools: string[] | null;
  mapped: AgentMapping[] | null;
  unmapped: AgentUnmapped[] | null;
  skills: string[] | null;
  model?: string;
  instructions?: string;
  ignored: AgentIgnored[] | null;
  notes: string[] | null;
}

export interface AgentSource {
  path: string;
  kind: AgentSourceKind;
  notes: string[] | null;
}

/** What the import would write (Go: agentimport.Plan); nothing is written until ApplyAgentImport. */
export interface AgentImportPlan {
  coworkers: ImportedCoworker[] | null;
  servers?: ImportPlan | null;
  sources: AgentSource[] | null;
  problems: string[] | null;
}

/** A previewed import: its plan, and the token ApplyAgentImport takes (the page names the plan, it cannot send one). */
export interface AgentImportPreview {
  token: string;
  plan: AgentImportPlan;
}

/** What ApplyAgentImport wrote, and the coworkers list after it. */
export interface AgentImportResult {
  written: { coworkers: { id: string; dir: string; skills: string[] | null }[] | null; servers_added: number; servers_file?: string };
  list: CoworkerList;
}
