import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { BrokenBundle, CoworkerList, CoworkerPreview } from "../lib/types";
import { eventually } from "../testing/eventually";

// The Go side, as the bound methods answer (api.ts wraps them).
const fake = vi.hoisted(() => ({
  coworkers: vi.fn(), chooseCoworkersDir: vi.fn(), setCoworkersDir: vi.fn(), chooseCoworkerBundle: vi.fn(),
  previewCoworker: vi.fn(), addCoworker: vi.fn(), openFile: vi.fn(), openChat: vi.fn(),
  deleteCoworker: vi.fn(), restoreCoworker: vi.fn(), editCoworker: vi.fn(), duplicateCoworker: vi.fn(),
}));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: Coworkers } = await import("./Coworkers.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.coworkers = null;
  app.dropped = null;
  app.notices = [];
  vi.clearAllMocks();
  document.body.innerHTML = "";
});

function render(list: CoworkerList): HTMLElement {
  app.coworkers = list;
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Coworkers, { target }));
  flushSync();
  return target;
}

const dir = "/home/ann/OpenWorker/coworkers";
const broken = (b: Partial<BrokenBundle>): BrokenBundle => ({ id: "", name: "", dir: "", file: "", line: 0, col: 0, message: "", fix: "", ...b });
const empty = "No coworkers in this folder yet";
const list = (l: Partial<CoworkerList> = {}): CoworkerList => ({ dir, coworkers: [], broken: [], error: "", ...l });
const preview = (p: Partial<CoworkerPreview> = {}): CoworkerPreview => ({
  source: "/home/ann/dev/notes", id: "notes", name: "Notes keeper", description: "Keeps notes.", version: "1.0.0",
  tools: ["device.system_info_get", "memory.*"], errors: [], dest: dir + "/notes", exists: false, refused: "", can_link: true, ...p,
});
const button = (root: ParentNode, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement | undefined;
const dialog = () => document.querySelector<HTMLElement>(".add-coworker");
const settle = async (f: () => void) => { await eventually(f); flushSync(); };

describe("Coworkers", () => {
  it("shows a coworker whose providers are still starting as starting, with a spinner, not as broken", () => {
    const c = { id: "dev", name: "Device", description: "d", version: "1", dir: dir + "/dev", tools: [], left_out: [], starting: true, start_bound: 90 };
    const root = render(list({ coworkers: [c] }));
    const status = root.querySelector<HTMLElement>(".starting[role=status]");
    expect(status?.textContent).toContain("starting…");
    expect(status?.textContent).toContain("up to 90 s");
    expect(status?.querySelector(".spinner")).not.toBeNull();
    expect(root.textContent).not.toContain("Coworkers that cannot start");
    expect(root.textContent).not.toContain(empty);
    // The resolved list (coworkers:changed) replaces it: tools, no spinner.
    app.coworkers = list({ coworkers: [{ ...c, starting: false, start_bound: 0, tools: [{ name: "device.system_info_get", provider: "mcp:device", placement: "on this computer" }] }] });
    flushSync();
    expect(root.querySelector(".starting")).toBeNull();
    expect(root.querySelector(".spinner")).toBeNull();
    expect(root.textContent).toContain("device.system_info_get");
  });
  it("says no bound for a starting coworker without MCP providers", () => {
    const root = render(list({ coworkers: [{ id: "n", name: "N", description: "", version: "", dir: dir + "/n", tools: [], left_out: [], starting: true, start_bound: 0 }] }));
    expect(root.querySelector(".starting")?.textContent?.trim()).toBe("starting…");
  });
  it("says the folder is empty when it has no coworker at all", () => {
    expect(render(list()).textContent).toContain(empty);
  });

  it("does not say the folder is empty when it has coworkers that cannot start", () => {
    const root = render(list({
      broken: [
        broken({ id: "memory", name: "Memory", dir: dir + "/memory", file: dir + "/memory/coworker/tools.json", message: 'tools.json names MCP provider "memory", which is not registered', fix: "add the missing MCP provider" }),
        broken({ dir: dir + "/notes.zip", file: dir + "/notes.zip", message: "this is a file, not a coworker folder, so it was skipped" }),
      ],
    }));
    expect(root.textContent).not.toContain(empty);
    expect(root.textContent).toContain("Coworkers that cannot start");
    expect(root.querySelectorAll("article.broken")).toHaveLength(2);
  });

  it("shows the program each stdio provider runs once, with the full path as the title", () => {
    const npx = "/Users/someone/.nvm/versions/node/v22.11.0/bin/npx";
    const root = render(list({
      coworkers: [{
        id: "files", name: "Files", description: "", version: "1.0.0", dir: dir + "/files", left_out: [],
        tools: [
          { name: "fs.read_file", provider: "mcp:fs", placement: "on this computer", program_path: npx },
          { name: "fs.list_directory", provider: "mcp:fs", placement: "on this computer", program_path: npx },
          { name: "web.fetch", provider: "mcp:web", placement: "on this computer" },
        ],
      }],
    }));
    const lines = [...root.querySelectorAll<HTMLElement>(".program")];
    expect(lines.map((l) => l.textContent)).toEqual(["mcp:fs runs …/node/v22.11.0/bin/npx"]);
    expect(lines[0].title).toBe(npx);
    expect(lines[0].classList.contains("muted")).toBe(true);
  });

  it("says under each stdio provider's program what it can reach: its sandbox, or your full access", () => {
    const words = "sandboxed: reads system files and its own folder; writes only in the workspace and its temp folder; no network";
    const root = render(list({
      coworkers: [{
        id: "files", name: "Files", description: "", version: "1.0.0", dir: dir + "/files", left_out: [],
        tools: [
          { name: "fs.read_file", provider: "mcp:fs", placement: `on this computer (${words})`, program_path: "/usr/bin/fs", access: words },
          { name: "fs.write_file", provider: "mcp:fs", placement: `on this computer (${words})`, program_path: "/usr/bin/fs", access: words },
          { name: "git.log", provider: "mcp:git", placement: "on this computer", program_path: "/usr/bin/git-mcp", access: "runs with your full access" },
          { name: "web.fetch", provider: "mcp:web", placement: "mcp.example.com" },
        ],
      }],
    }));
    const lines = [...root.querySelectorAll<HTMLElement>(".program, .access")].map((l) => l.textContent);
    expect(lines).toEqual(["mcp:fs runs /usr/bin/fs", words, "mcp:git runs /usr/bin/git-mcp", "runs with your full access"]);
    // The sandboxed provider is on this computer: no remote host is named.
    expect([...root.querySelectorAll(".tools .remote")].map((r) => r.textContent!.trim())).toEqual(["on mcp.example.com"]);
  });

  it("names the extensions a coworker's tools come from, and what to install for one that cannot run", () => {
    const fix = 'extension "Knowledge Graph Memory" 0.6.3 (namespace memory) cannot run on this computer: this extension needs Node.js >=18.0.0, which was not found (install it from https://nodejs.org/); then restart OpenWorker';
    const root = render(list({
      coworkers: [
        {
          id: "keeper", name: "Keeper", description: "", version: "1.0.0", dir: dir + "/keeper", left_out: [],
          tools: [
            { name: "memory.create_entities", provider: "mcp:memory", placement: "on this computer", program_path: "/usr/bin/node" },
            { name: "memory.read_graph", provider: "mcp:memory", placement: "on this computer", program_path: "/usr/bin/node" },
          ],
          extensions: [{ name: "memory", display_name: "Knowledge Graph Memory", version: "0.6.3", namespace: "memory" }],
        },
        { id: "plain", name: "Plain", description: "", version: "1.0.0", dir: dir + "/plain", left_out: [], tools: [], extensions: [] },
        { id: "older", name: "Older", description: "", version: "1.0.0", dir: dir + "/older", left_out: [], tools: [] }, // an older Go side: no extensions
      ],
      broken: [broken({ id: "notes", name: "Notes", dir: dir + "/notes", file: dir + "/notes/coworker/tools.json", line: 1, col: 11,
        message: 'coworker "notes" selects "memory.read_graph": mcp provider "memory": program "node" cannot be found', fix })],
    }));
    const cards = [...root.querySelectorAll<HTMLElement>("article.card:not(.broken)")];
    const uses = (card: HTMLElement) => [...card.querySelectorAll("[aria-label=Extensions] li")].map((li) => li.textContent);
    expect(cards.map((c) => c.querySelector("h2")?.textContent)).toEqual(["Keeper", "Plain", "Older"]);
    expect(uses(cards[0])).toEqual(["Uses extension Knowledge Graph Memory 0.6.3 (memory)"]);
    expect(cards[0].querySelector<HTMLElement>("[aria-label=Extensions] li")!.title).toContain("memory.*");
    expect(uses(cards[1])).toEqual([]);
    expect(uses(cards[2])).toEqual([]);
    const b = root.querySelector<HTMLElement>("article.broken")!;
    expect(b.textContent).toContain("Fix: " + fix);
  });

  it("opens a broken bundle's file in the system's editor", async () => {
    fake.openFile.mockResolvedValue(undefined);
    const file = dir + "/memory/coworker/tools.json";
    const root = render(list({ broken: [broken({ id: "memory", dir: dir + "/memory", file, line: 3, col: 5, message: "bad" })] }));
    const link = root.querySelector<HTMLButtonElement>("article.broken button.path-link")!;
    expect(link.textContent).toBe(file + ":3:5");
    link.click();
    await settle(() => expect(fake.openFile).toHaveBeenCalledWith(file));
  });

  it("says a picked bundle folder is a coworker and uses its parent on request", async () => {
    const hint = { kind: "bundle" as const, picked: dir + "/notes", bundle: dir + "/notes", parent: dir,
      message: `This folder is a coworker (notes); its parent ${dir} is the coworkers folder.` };
    fake.setCoworkersDir.mockResolvedValue(list({ coworkers: [{ id: "notes", name: "Notes", description: "", version: "", dir: dir + "/notes", tools: [], left_out: [] }] }));
    const root = render(list({ dir: "/home/ann/old", hint }));
    const banner = root.querySelector(".folder-hint")!;
    expect(banner.textContent).toContain("This folder is a coworker (notes); its parent");
    expect(root.textContent).not.toContain("coworker/coworker/manifest.md");
    expect(root.textContent).not.toContain(empty);
    button(banner, "Use the parent folder")!.click();
    await settle(() => expect(fake.setCoworkersDir).toHaveBeenCalledWith(dir));
    await settle(() => expect(root.querySelector(".folder-hint")).toBeNull());
    expect(root.textContent).toContain("Notes");
  });

  it("previews a picked bundle before anything is written, then copies it", async () => {
    fake.chooseCoworkerBundle.mockResolvedValue("/home/ann/dev/notes");
    fake.previewCoworker.mockResolvedValue(preview());
    fake.addCoworker.mockResolvedValue(list({ coworkers: [{ id: "notes", name: "Notes keeper", description: "", version: "", dir: dir + "/notes", tools: [], left_out: [] }] }));
    const root = render(list());
    button(root, "Add coworker…")!.click();
    await settle(() => expect(dialog()?.textContent).toContain("Notes keeper"));
    const d = dialog()!;
    expect(fake.previewCoworker).toHaveBeenCalledWith("/home/ann/dev/notes");
    expect(fake.addCoworker).not.toHaveBeenCalled();
    expect([...d.querySelectorAll(".tools li")].map((li) => li.textContent)).toEqual(["device.system_info_get", "memory.*"]);
    expect(d.textContent).toContain(dir + "/notes");
    expect(button(d, "Link")).toBeDefined();
    button(d, "Copy into coworkers")!.click();
    await settle(() => expect(dialog()).toBeNull());
    expect(fake.addCoworker).toHaveBeenCalledWith("/home/ann/dev/notes", "copy", false);
    expect(root.querySelector("article.card h2")?.textContent).toBe("Notes keeper");
  });

  it("needs Replace for a taken name and shows a refusal without Copy", async () => {
    fake.chooseCoworkerBundle.mockResolvedValue("/home/ann/dev/notes");
    fake.previewCoworker.mockResolvedValue(preview({ exists: true, can_link: false }));
    fake.addCoworker.mockResolvedValue(list());
    const root = render(list());
    button(root, "Add coworker…")!.click();
    await settle(() => expect(dialog()?.textContent).toContain("exists already"));
    const d = dialog()!;
    expect(button(d, "Link")).toBeUndefined(); // not offered (Windows)
    const copy = button(d, "Copy into coworkers")!;
    expect(copy.disabled).toBe(true);
    d.querySelector<HTMLInputElement>("input[type=checkbox]")!.click();
    flushSync();
    expect(copy.disabled).toBe(false);
    copy.click();
    await settle(() => expect(fake.addCoworker).toHaveBeenCalledWith("/home/ann/dev/notes", "copy", true));

    fake.previewCoworker.mockResolvedValue(preview({ id: "", refused: "/home/ann/dev is not a coworker bundle: /home/ann/dev/coworker/manifest.md is missing" }));
    button(root, "Add coworker…")!.click();
    await settle(() => expect(dialog()?.querySelector("[role=alert]")?.textContent).toContain("manifest.md is missing"));
    expect(button(dialog()!, "Copy into coworkers")).toBeUndefined();
  });

  it("shows a bundle's load errors in the preview", async () => {
    fake.previewCoworker.mockResolvedValue(preview({ id: "", name: "", tools: [], errors: [broken({ file: "/home/ann/dev/notes/coworker/tools.json", line: 2, col: 2, message: 'unknown field "tool"', fix: 'write "tools"' })] }));
    render(list());
    app.dropped = "/home/ann/dev/notes"; // as a drop on the window does
    await settle(() => expect(dialog()?.textContent).toContain('unknown field "tool"'));
    expect(fake.previewCoworker).toHaveBeenCalledWith("/home/ann/dev/notes");
    expect(dialog()!.textContent).toContain("/home/ann/dev/notes/coworker/tools.json:2:2");
    expect(app.dropped).toBeNull();
  });

  it("deletes a coworker to the trash with an Undo that puts it back, and opens one in the editor", async () => {
    const c = { id: "notes", name: "Notes", description: "", version: "1.0.0", dir: dir + "/notes", left_out: [], extensions: [], tools: [] };
    const root = render(list({ coworkers: [c] }));
    fake.deleteCoworker.mockResolvedValue({ id: "notes", name: "Notes", token: dir + "/.trash/notes-20261206T000000.000000000Z", where: "the trash of the coworkers folder" });
    fake.restoreCoworker.mockResolvedValue(list({ coworkers: [c] }));
    button(root, "Delete")!.click();
    await settle(() => expect(app.notices.map((n) => n.message)).toContain("Deleted Notes: moved to the trash of the coworkers folder."));
    expect(fake.deleteCoworker).toHaveBeenCalledWith(dir + "/notes");
    app.notices[0].action!.run();
    await settle(() => expect(fake.restoreCoworker).toHaveBeenCalledWith("notes", dir + "/.trash/notes-20261206T000000.000000000Z"));

    fake.editCoworker.mockResolvedValue({ draft: { id: "notes" }, dir: dir + "/notes", new: false, linked_to: "", problems: [], skills: [], template: "" });
    button(root, "Edit")!.click();
    await settle(() => expect(app.view.name).toBe("editor"));
    expect(app.editing?.dir).toBe(dir + "/notes");
    app.view = { name: "coworkers" };
  });

  it("opens a coworker that cannot start in the editor to fix it", async () => {
    const root = render(list({ broken: [broken({ id: "memory", name: "Memory", dir: dir + "/memory", file: dir + "/memory/coworker/tools.json", line: 2, message: "invalid JSON" })] }));
    fake.editCoworker.mockResolvedValue({ draft: { id: "memory" }, dir: dir + "/memory", new: false, linked_to: "", problems: [], skills: [], template: "" });
    button(root, "Fix in the editor")!.click();
    await settle(() => expect(fake.editCoworker).toHaveBeenCalledWith(dir + "/memory"));
    app.view = { name: "coworkers" };
  });
});
