import { describe, expect, it } from "vitest";
import { canImport, kindLabel, madeCoworkers, mappedLines, serversAdded, sourceNotes, summary } from "./agentimport";
import type { AgentImportPlan, ImportedCoworker } from "./types_agentimport";

function coworker(over: Partial<ImportedCoworker> = {}): ImportedCoworker {
  return { id: "code-reviewer", name: "code-reviewer", description: "Reviews code.", source: "/a/reviewer.md", kind: "claude-code-agent",
    tools: ["files.file_read"], mapped: [{ from: "Read", to: ["files.file_read"], verified: true }],
    unmapped: [{ tool: "Bash", reason: "no shell tool" }], skills: [], ignored: [], notes: [], ...over };
}

function plan(over: Partial<AgentImportPlan> = {}): AgentImportPlan {
  return { coworkers: [coworker()], servers: null, sources: [{ path: "/a/reviewer.md", kind: "claude-code-agent", notes: [] }], problems: [], ...over };
}

const serversPlan = {
  from: "/a/plugin", format: "claude-code", dest: "/cfg/servers.json", kept: 0, notices: null, digest: "d",
  items: [
    { namespace: "github", name: "github", action: "add", why: "", notices: null },
    { namespace: "files", name: "files", action: "skip", why: "taken", notices: null },
  ],
} as unknown as AgentImportPlan["servers"];

describe("agent import preview", () => {
  it("names every kind of source, and a path of none", () => {
    expect(kindLabel("claude-code-agent")).toBe("Claude Code subagent");
    expect(kindLabel("agent-skill")).toBe("Agent Skill");
    expect(kindLabel("goose-recipe")).toBe("Goose recipe");
    expect(kindLabel("")).toBe("not an agent of a known kind");
  });

  it("says what the import makes in one line", () => {
    expect(summary(plan())).toBe("1 new coworker");
    expect(summary(plan({ coworkers: [coworker(), coworker({ id: "b" })], servers: serversPlan }))).toBe("2 new coworkers, 1 MCP server");
    expect(summary(plan({ coworkers: [coworker({ into: true, name: "Helper", skills: ["pdf", "docx"] })] }))).toBe("2 skills for Helper");
    expect(summary(plan({ coworkers: [] }))).toBe("nothing to import");
  });

  it("adds only the servers the servers import adds", () => {
    expect(serversAdded(plan({ servers: serversPlan }))).toEqual([{ namespace: "github", name: "github", secrets: [] }]);
    expect(serversAdded(plan())).toEqual([]);
  });

  it("refuses Import while there is a problem or nothing to write", () => {
    expect(canImport(plan())).toBe(true);
    expect(canImport(plan({ problems: ["x.yaml:3: not valid YAML; quote it"] }))).toBe(false);
    expect(canImport(plan({ coworkers: [] }))).toBe(false);
    expect(canImport(plan({ coworkers: [], servers: serversPlan }))).toBe(true);
  });

  it("lists the coworkers made, not the one skills go into", () => {
    const into = coworker({ id: "helper", into: true });
    expect(madeCoworkers(plan({ coworkers: [coworker(), into] })).map((c) => c.id)).toEqual(["code-reviewer"]);
  });

  it("shows where each tool name went", () => {
    expect(mappedLines(coworker({ mapped: [{ from: "Grep", to: ["files.files_search"], verified: false }, { from: "x", to: null, verified: false }] })))
      .toEqual(["Grep → files.files_search", "x → —"]);
  });

  it("gathers the lines about the sources", () => {
    const p = plan({ sources: [{ path: "/n.txt", kind: "", notes: ["n.txt: not an agent"] }, { path: "/a", kind: "agent-skill", notes: null }] });
    expect(sourceNotes(p)).toEqual(["n.txt: not an agent"]);
  });
});
