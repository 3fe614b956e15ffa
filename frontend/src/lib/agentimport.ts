// Display helpers for the preview of an import of agents and skills
// (Go: agentimport.Plan, docs/import-agents.md). Pure functions, so the
// words the dialog shows are tested without a window.
import type { AgentImportPlan, AgentSourceKind, ImportedCoworker } from "./types_agentimport";
import type { ImportSecret } from "./types";

/** The kind of a source as people name it. */
export function kindLabel(k: AgentSourceKind): string {
  switch (k) {
    case "claude-code-agent":
      return "Claude Code subagent";
    case "vscode-agent":
      return "VS Code custom agent";
    case "vscode-chatmode":
      return "VS Code chat mode";
    case "goose-recipe":
      return "Goose recipe";
    case "agent-skill":
      return "Agent Skill";
    case "claude-code-plugin":
      return "Claude Code plugin";
    case "openworker-export":
      return "OpenWorker export";
    default:
      return "not an agent of a known kind";
  }
}

/** The coworkers the import makes (not the one skills go into). */
export function madeCoworkers(p: AgentImportPlan): ImportedCoworker[] {
  return (p.coworkers ?? []).filter((c) => !c.into);
}

/** The servers entries the import adds to the servers file. */
export function serversAdded(p: AgentImportPlan): { namespace: string; name: string; secrets: ImportSecret[] }[] {
  return (p.servers?.items ?? []).filter((it) => it.action === "add").map((it) => ({ namespace: it.namespace, name: it.name, secrets: it.secrets ?? [] }));
}

/** Whether Import may be pressed: no problem, and something to write. */
export function canImport(p: AgentImportPlan): boolean {
  return !(p.problems ?? []).length && ((p.coworkers ?? []).length > 0 || serversAdded(p).length > 0);
}

/** One line of what the import does: "2 coworkers, 1 server". */
export function summary(p: AgentImportPlan): string {
  const made = madeCoworkers(p).length;
  const into = (p.coworkers ?? []).filter((c) => c.into);
  const srv = serversAdded(p).length;
  const parts: string[] = [];
  if (made) parts.push(made === 1 ? "1 new coworker" : `${made} new coworkers`);
  for (const c of into) {
    const n = (c.skills ?? []).length;
    parts.push(`${n === 1 ? "1 skill" : `${n} skills`} for ${c.name || c.id}`);
  }
  if (srv) parts.push(srv === 1 ? "1 MCP server" : `${srv} MCP servers`);
  return parts.length ? parts.join(", ") : "nothing to import";
}

/** The source's tool names that map, as "Read → files.file_read". */
export function mappedLines(c: ImportedCoworker): string[] {
  return (c.mapped ?? []).map((m) => `${m.from} → ${(m.to ?? []).join(", ") || "—"}`);
}

/** The lines about the sources worth showing: a path that is no agent, a part left out. */
export function sourceNotes(p: AgentImportPlan): string[] {
  const out: string[] = [];
  for (const s of p.sources ?? []) {
    for (const n of s.notes ?? []) out.push(n);
  }
  return out;
}
