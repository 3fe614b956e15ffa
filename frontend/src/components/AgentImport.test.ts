import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { AgentImportPreview, ImportedCoworker } from "../lib/types_agentimport";
import type { CoworkerList } from "../lib/types";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({
  coworkers: vi.fn(), chooseCoworkersDir: vi.fn(), setCoworkersDir: vi.fn(), chooseCoworkerBundle: vi.fn(),
  previewCoworker: vi.fn(), addCoworker: vi.fn(), openFile: vi.fn(), openChat: vi.fn(),
  chooseAgentImport: vi.fn(), previewAgentImport: vi.fn(), applyAgentImport: vi.fn(),
}));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: Coworkers } = await import("../screens/Coworkers.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.coworkers = null;
  app.droppedAgents = null;
  app.notices = [];
  vi.clearAllMocks();
  document.body.innerHTML = "";
});

const dir = "/home/ann/OpenWorker/coworkers";
const list = (ids: string[] = []): CoworkerList => ({ dir, coworkers: ids.map((id) => ({ id, name: id, description: "", version: "", dir: `${dir}/${id}`, tools: [], left_out: [], extensions: [] })), broken: [], error: "" });
const reviewer: ImportedCoworker = {
  id: "compliance-auditor", name: "compliance-auditor", description: "Audits compliance.", source: "/src/compliance-auditor.md", kind: "claude-code-agent",
  tools: ["files.file_read", "files.files_search"], mapped: [{ from: "Read", to: ["files.file_read"], verified: false }, { from: "Grep", to: ["files.files_search"], verified: false }],
  unmapped: [{ tool: "Bash", reason: "it runs shell commands; OpenWorker has no shell tool" }], skills: [],
  ignored: [{ field: "color", line: 6, reason: "a color of Claude Code's interface" }], notes: [],
};
const skill: ImportedCoworker = { ...reviewer, id: "skill-creator", name: "skill-creator", kind: "agent-skill", source: "/src/skill-creator", tools: [], mapped: [], unmapped: [], skills: ["skill-creator"], ignored: [] };
const preview = (over: Partial<AgentImportPreview["plan"]> = {}): AgentImportPreview => ({
  token: "tok-1", plan: { coworkers: [reviewer, skill], servers: null, sources: [{ path: "/src/notes.txt", kind: "", notes: ["notes.txt: not an agent, recipe, skill, plugin or export of a kind OpenWorker imports"] }], problems: [], ...over },
});

function render(): HTMLElement {
  app.coworkers = list();
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Coworkers, { target }));
  flushSync();
  return target;
}
const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement | undefined;
const dialog = () => document.querySelector<HTMLElement>(".agent-import");
const settle = async (f: () => void) => { await eventually(f); flushSync(); };

describe("Import agents or skills", () => {
  it("previews a drop, and Import writes the plan by its token", async () => {
    fake.previewAgentImport.mockResolvedValue(preview());
    fake.applyAgentImport.mockResolvedValue({ written: { coworkers: [{ id: "compliance-auditor", dir: "", skills: [] }, { id: "skill-creator", dir: "", skills: ["skill-creator"] }], servers_added: 0 }, list: list(["compliance-auditor", "skill-creator"]) });
    render();
    app.droppedAgents = ["/src/compliance-auditor.md", "/src/skill-creator"];
    flushSync();
    await settle(() => expect(dialog()?.textContent).toContain("2 new coworkers"));
    expect(fake.previewAgentImport).toHaveBeenCalledWith(["/src/compliance-auditor.md", "/src/skill-creator"]);
    const text = dialog()!.textContent!;
    for (const want of ["compliance-auditor", "Claude Code subagent", "Audits compliance.", "files.file_read", "Read → files.file_read", "Bash", "no shell tool", "1 field(s) ignored", "Agent Skill", "skill-creator", "notes.txt: not an agent"]) {
      expect(text).toContain(want);
    }
    expect(fake.applyAgentImport).not.toHaveBeenCalled();
    button("Import")!.click();
    await settle(() => expect(dialog()).toBeNull());
    expect(fake.applyAgentImport).toHaveBeenCalledWith("tok-1");
    expect((app.coworkers?.coworkers ?? []).map((c) => c.id)).toEqual(["compliance-auditor", "skill-creator"]);
  });

  it("refuses Import while the plan has a problem, and Esc closes with nothing written", async () => {
    fake.previewAgentImport.mockResolvedValue(preview({ coworkers: [], problems: ["/src/quick-note.yaml:16: not valid YAML; quote the value"] }));
    render();
    app.droppedAgents = ["/src/quick-note.yaml"];
    flushSync();
    await settle(() => expect(dialog()?.textContent).toContain("quick-note.yaml:16"));
    expect(button("Import")!.disabled).toBe(true);
    dialog()!.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    dialog()!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    flushSync();
    expect(dialog()).toBeNull();
    expect(fake.applyAgentImport).not.toHaveBeenCalled();
  });

  it("chooses files from the button, and Enter on the dialog imports", async () => {
    fake.chooseAgentImport.mockResolvedValue(["/src/compliance-auditor.md"]);
    fake.previewAgentImport.mockResolvedValue(preview({ coworkers: [reviewer], sources: [] }));
    fake.applyAgentImport.mockResolvedValue({ written: { coworkers: [{ id: "compliance-auditor", dir: "", skills: [] }], servers_added: 0 }, list: list(["compliance-auditor"]) });
    render();
    button("Import agents or skills…")!.click();
    flushSync();
    expect(document.activeElement).toBe(dialog());
    button("Choose files…")!.click();
    await settle(() => expect(dialog()?.textContent).toContain("1 new coworker"));
    expect(fake.chooseAgentImport).toHaveBeenCalledWith("files");
    dialog()!.focus();
    dialog()!.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    await settle(() => expect(fake.applyAgentImport).toHaveBeenCalledWith("tok-1"));
  });
});
