import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { CoworkerDraft, Draft, ToolProvider } from "../lib/types_editor";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({
  toolCatalog: vi.fn(), checkCoworker: vi.fn(), saveCoworker: vi.fn(), editCoworker: vi.fn(), chooseWorkingFolder: vi.fn(),
  chooseSkill: vi.fn(), attachSkill: vi.fn(), openFile: vi.fn(), openChat: vi.fn(),
}));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: CoworkerEditor } = await import("./CoworkerEditor.svelte");
const { app } = await import("../lib/state.svelte");

const draft = (d: Partial<Draft> = {}): Draft => ({
  id: "notes", name: "Notes", description: "Keeps notes.", version: "1.0.0", instructions: "You keep **notes**.", tools: ["kit.echo"],
  wholeProviders: [], policy: {}, skills: null, sampling: [], model: "", folder: "", requiresSandbox: false, ...d,
});
const cw = (c: Partial<CoworkerDraft> = {}): CoworkerDraft => ({
  draft: draft(), dir: "/c/notes", new: false, linked_to: "", problems: [], skills: [], template: "", ...c,
});
const catalog: ToolProvider[] = [
  { namespace: "kit", provider: "mcp:kit", kind: "server", title: "kit", source: "servers.json:3", error: "", tools: [
    { name: "kit.echo", description: "Echoes a text.", effect: "read_only" },
    { name: "kit.wipe", description: "Wipes the disk.", effect: "destructive" },
  ] },
  { namespace: "dead", provider: "mcp:dead", kind: "server", title: "dead", source: "servers.json:9", error: "mcp provider \"dead\" did not start: exit status 3", tools: [] },
];

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  app.notices = [];
  app.view = { name: "coworkers" };
  vi.clearAllMocks();
});

async function render(initial: CoworkerDraft) {
  fake.toolCatalog.mockResolvedValue(catalog);
  fake.checkCoworker.mockResolvedValue([]);
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(CoworkerEditor, { target, props: { initial } }));
  await eventually(() => expect(target.querySelector(".tool-list")).not.toBeNull());
  const button = (label: string) => Array.from(target.querySelectorAll("button")).find((b) => b.textContent?.trim() === label) as HTMLButtonElement;
  return { target, button };
}

const key = (code: string, init: KeyboardEventInit = {}) => window.dispatchEvent(new KeyboardEvent("keydown", { code, key: code === "KeyS" ? "s" : code, bubbles: true, cancelable: true, ...init }));

describe("CoworkerEditor", () => {
  it("lists the providers' tools with their effects and the policy of each selected one", async () => {
    const { target } = await render(cw({ draft: draft({ policy: { "kit.echo": "allow" } }) }));
    const heads = Array.from(target.querySelectorAll(".group-head strong")).map((h) => h.textContent);
    expect(heads).toEqual(["kit (MCP server from servers.json:3)", "dead (MCP server from servers.json:9)"]);
    const rows = target.querySelectorAll<HTMLLIElement>(".tool-list li");
    expect(rows[0].textContent).toContain("reads only");
    expect(rows[1].textContent).toContain("can delete data");
    expect(rows[0].querySelector<HTMLInputElement>("input")!.checked).toBe(true);
    expect(rows[0].querySelector("select")!.value).toBe("allow");
    expect(rows[1].querySelector("select")!.disabled).toBe(true);
    expect(target.textContent).toContain("did not start: exit status 3");
  });

  it("marks the problems of a coworker broken on disk next to their fields, and can save it unchanged", async () => {
    const { target, button } = await render(cw({ problems: [
      { field: "tools", file: "/c/notes/coworker/tools.json", line: 2, col: 24, message: "invalid JSON: invalid character ']'", fix: "remove the comma before it" },
      { field: "name", file: "/c/notes/coworker/manifest.md", line: 3, col: 7, message: "name must not be empty", fix: "give the coworker a name" },
    ] }));
    expect(target.querySelector("#ed-name")!.getAttribute("aria-invalid")).toBe("true");
    expect(target.querySelector("#ed-name-p")!.textContent).toContain("coworker/manifest.md:3:7: name must not be empty; give the coworker a name");
    expect(target.querySelector("#ed-tools-p")!.textContent).toContain("coworker/tools.json:2:24: invalid JSON");
    expect(button("Save").disabled).toBe(false);
  });

  it("checks each edit and saves the draft with the tools and policies chosen, with Ctrl+S", async () => {
    const { target } = await render(cw());
    const wipe = target.querySelectorAll<HTMLLIElement>(".tool-list li")[1];
    wipe.querySelector<HTMLInputElement>("input")!.click();
    flushSync();
    const sel = wipe.querySelector("select")!;
    sel.value = "deny";
    sel.dispatchEvent(new Event("change", { bubbles: true }));
    flushSync();
    fake.checkCoworker.mockResolvedValue([{ field: "policy", file: "/c/notes/coworker/manifest.md", line: 6, col: 3, message: "policy is odd", fix: "" }]);
    await eventually(() => expect(fake.checkCoworker).toHaveBeenCalled());
    const checked = fake.checkCoworker.mock.calls.at(-1)!;
    expect(checked[0]).toBe("/c/notes");
    expect(checked[1].tools).toEqual(["kit.echo", "kit.wipe"]);
    expect(checked[1].policy).toEqual({ "kit.wipe": "deny" });
    fake.saveCoworker.mockResolvedValue({ dir: "/c/notes", id: "notes", name: "Notes", written: "/c/notes" });
    fake.editCoworker.mockResolvedValue(cw({ draft: draft({ tools: ["kit.echo", "kit.wipe"], policy: { "kit.wipe": "deny" } }) }));
    key("KeyS", { ctrlKey: true });
    await eventually(() => expect(fake.saveCoworker).toHaveBeenCalledWith("/c/notes", expect.objectContaining({ tools: ["kit.echo", "kit.wipe"], policy: { "kit.wipe": "deny" } })));
    await eventually(() => expect(app.notices.map((n) => n.message).join()).toContain("Saved Notes"));
  });

  it("previews the instructions as Markdown", async () => {
    const { target, button } = await render(cw());
    button("Preview").click();
    flushSync();
    expect(target.querySelector(".preview strong")?.textContent).toBe("notes");
    expect(target.querySelector("#ed-instructions")).toBeNull();
  });

  it("says where a linked coworker is saved", async () => {
    const { target } = await render(cw({ linked_to: "/home/ann/dev/notes" }));
    expect(target.textContent).toContain("This coworker is linked to /home/ann/dev/notes; saving edits it there.");
  });

  it("asks before Esc drops unsaved edits, and closes at once when nothing changed", async () => {
    app.view = { name: "editor", key: 1 };
    const { target } = await render(cw());
    const name = target.querySelector<HTMLInputElement>("#ed-name")!;
    name.value = "Notes 2";
    name.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    key("Escape", { key: "Escape" });
    flushSync();
    expect(target.textContent).toContain("Discard your changes?");
    expect(app.view.name).toBe("editor");
    key("Escape", { key: "Escape" });
    flushSync();
    expect(target.textContent).not.toContain("Discard your changes?");
    name.value = "Notes";
    name.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    key("Escape", { key: "Escape" });
    expect(app.view.name).toBe("coworkers");
  });

  it("lists selected tools no provider offers, to untick them", async () => {
    const { target } = await render(cw({ draft: draft({ tools: ["kit.echo", "gone.tool"] }) }));
    const missing = target.querySelector(".group.missing")!;
    expect(missing.textContent).toContain("gone.tool");
    missing.querySelector<HTMLInputElement>("input")!.click();
    flushSync();
    expect(target.querySelector(".group.missing")).toBeNull();
  });

  it("lists keys of manifest.md it does not know, with their problem, and removes one", async () => {
    const { target } = await render(cw({ draft: draft({ otherKeys: ["colour"] }), problems: [
      { field: "otherKeys", file: "/c/notes/coworker/manifest.md", line: 4, col: 1, message: "unknown key \"colour\"", fix: "remove it" },
    ] }));
    expect(target.querySelector(".other-keys")!.textContent).toContain("colour");
    expect(target.querySelector("#ed-other-p")!.textContent).toContain("manifest.md:4:1: unknown key");
    target.querySelector<HTMLButtonElement>(".other-keys button")!.click();
    flushSync();
    expect(target.querySelector(".other-keys")).toBeNull();
    await eventually(() => expect(fake.checkCoworker.mock.calls.at(-1)?.[1].otherKeys).toEqual([]));
  });
});

describe("CoworkerEditor limits", () => {
  const input = (root: HTMLElement, key: string) => root.querySelector<HTMLInputElement>(`#ed-limit-${key}`)!;
  const hint = (root: HTMLElement, key: string) => root.querySelector(`#ed-limit-${key}-d`)!.textContent?.trim();
  function type(el: HTMLInputElement, value: string) {
    el.value = value;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
  }

  it("shows the coworker's limits and the default of Settings that applies to each one left empty", async () => {
    const { target } = await render(cw({
      draft: draft({ limits: { tokensPerRun: 0, tokensPerDay: 200000, toolCallsPerRun: 0 } }),
      default_limits: { tokens_per_run: 50000, tokens_per_day: 1000000, tool_calls_per_run: 0 },
    }));
    expect(input(target, "tokens_per_run").value).toBe("");
    expect(input(target, "tokens_per_run").placeholder).toBe("default 50,000");
    expect(hint(target, "tokens_per_run")).toBe("default: 50,000 from Settings");
    expect(input(target, "tokens_per_day").value).toBe("200,000");
    expect(hint(target, "tokens_per_day")).toBe("Its own; the default of Settings (1,000,000) does not apply");
    expect(input(target, "tool_calls_per_run").placeholder).toBe("no limit");
    expect(hint(target, "tool_calls_per_run")).toBe("no limit (none set in Settings)");
  });

  it("saves the limits typed, and refuses a fraction naming the field", async () => {
    const { target, button } = await render(cw({ default_limits: { tokens_per_run: 50000, tokens_per_day: 0, tool_calls_per_run: 0 } }));
    type(input(target, "tokens_per_run"), "0.5");
    expect(hint(target, "tokens_per_run")).toContain('Tokens per run: "0.5" is not a whole number.');
    expect(input(target, "tokens_per_run").getAttribute("aria-invalid")).toBe("true");
    expect(button("Save").disabled).toBe(true);
    type(input(target, "tokens_per_run"), "20,000");
    type(input(target, "tool_calls_per_run"), "12");
    await eventually(() => expect(button("Save").disabled).toBe(false));
    fake.saveCoworker.mockResolvedValue({ dir: "/c/notes", id: "notes", name: "Notes", written: "/c/notes" });
    fake.editCoworker.mockResolvedValue(cw({ draft: draft({ limits: { tokensPerRun: 20000, tokensPerDay: 0, toolCallsPerRun: 12 } }) }));
    button("Save").click();
    await eventually(() => expect(fake.saveCoworker).toHaveBeenCalled());
    expect(fake.saveCoworker.mock.calls[0][1].limits).toEqual({ tokensPerRun: 20000, tokensPerDay: 0, toolCallsPerRun: 12 });
    await eventually(() => expect(input(target, "tokens_per_run").value).toBe("20,000"));
  });
});
