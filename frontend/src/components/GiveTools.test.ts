import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { CoworkerList } from "../lib/types";
import type { ToolProvider } from "../lib/types_editor";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({ toolCatalog: vi.fn(), giveTools: vi.fn(), coworkers: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: GiveTools } = await import("./GiveTools.svelte");
const { app } = await import("../lib/state.svelte");

const echo: ToolProvider = { namespace: "echo", provider: "mcp:echo", kind: "extension", title: "Echo 1.0.0", source: "", error: "", tools: [
  { name: "echo.echo", description: "Echo a text", effect: "unknown" },
  { name: "echo.settings", description: "Show the settings", effect: "read_only" },
  { name: "echo.xxxx", description: "too long", effect: "unknown", refused: "too long" },
] };
const list: CoworkerList = { dir: "/c", error: "", broken: [], coworkers: [
  { id: "ann", name: "Ann", description: "", version: "1.0.0", dir: "/c/ann", tools: [], left_out: [], extensions: [] },
] } as CoworkerList;

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  app.notices = [];
  app.coworkers = null;
  vi.clearAllMocks();
});

async function render(onclose = vi.fn()) {
  fake.toolCatalog.mockResolvedValue([echo]);
  app.coworkers = list;
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(GiveTools, { target, props: { namespaces: ["echo"], title: "echo", onclose } }));
  await eventually(() => expect(target.querySelector(".give-tools")).not.toBeNull());
  flushSync();
  const button = (label: RegExp) => Array.from(target.querySelectorAll("button")).find((b) => label.test(b.textContent ?? "")) as HTMLButtonElement;
  return { target, button, onclose };
}

describe("GiveTools", () => {
  it("preselects the provider's tools a coworker can take and gives them to a new coworker named after it", async () => {
    const { target, button, onclose } = await render();
    expect(fake.toolCatalog).toHaveBeenCalledWith(["echo"]);
    const boxes = target.querySelectorAll<HTMLInputElement>(".give-tools input");
    expect(boxes).toHaveLength(2);
    expect([...boxes].every((b) => b.checked)).toBe(true);
    expect(target.querySelector<HTMLInputElement>("#give-name")!.value).toBe("Echo");
    expect(document.activeElement?.id).toBe("give-name");
    fake.giveTools.mockResolvedValue({ id: "echo", name: "Echo", dir: "/c/echo", created: true, added: ["echo.echo", "echo.settings"] });
    button(/^Give 2 tools$/).click();
    await eventually(() => expect(onclose).toHaveBeenCalled());
    expect(fake.giveTools).toHaveBeenCalledWith("", "Echo", ["echo.echo", "echo.settings"]);
    expect(app.notices[0].message).toContain("Made the coworker Echo with 2 tools");
  });

  it("gives the ticked tools to an existing coworker", async () => {
    const { target, button } = await render();
    target.querySelectorAll<HTMLInputElement>(".give-tools input")[1].click();
    target.querySelector<HTMLInputElement>("input[value=existing]")!.click();
    flushSync();
    const sel = target.querySelector<HTMLSelectElement>(".targets select")!;
    expect(button(/^Give 1 tool$/).disabled).toBe(true); // no coworker chosen yet
    sel.value = "/c/ann";
    sel.dispatchEvent(new Event("change", { bubbles: true }));
    flushSync();
    fake.giveTools.mockResolvedValue({ id: "ann", name: "Ann", dir: "/c/ann", created: false, added: ["echo.echo"] });
    button(/^Give 1 tool$/).click();
    await eventually(() => expect(fake.giveTools).toHaveBeenCalledWith("/c/ann", "", ["echo.echo"]));
  });

  it("says why nothing was given, and Esc closes", async () => {
    const { target, button, onclose } = await render();
    fake.giveTools.mockRejectedValue(new Error("coworker \"echo\" exists already"));
    button(/^Give 2 tools$/).click();
    await eventually(() => expect(target.textContent).toContain("exists already"));
    expect(onclose).not.toHaveBeenCalled();
    target.querySelector<HTMLInputElement>("#give-name")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(onclose).toHaveBeenCalled();
  });

  it("takes a name of at most 128 characters, and a changed name clears the last refusal", async () => {
    const { target, button } = await render();
    const name = target.querySelector<HTMLInputElement>("#give-name")!;
    expect(name.maxLength).toBe(128);
    fake.giveTools.mockRejectedValue(new Error("manifest.md:3:7: name is 130 characters long; the limit is 128"));
    button(/^Give 2 tools$/).click();
    await eventually(() => expect(target.textContent).toContain("the limit is 128"));
    name.value = "Short";
    name.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    expect(target.textContent).not.toContain("the limit is 128");
  });
});
