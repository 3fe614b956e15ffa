import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { InstalledExtension } from "../lib/types";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({ extensions: vi.fn(), removeExtension: vi.fn(), chooseExtensionFile: vi.fn(), setExtensionSandbox: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: ExtensionsSettings } = await import("./ExtensionsSettings.svelte");
const { app } = await import("../lib/state.svelte");

const memory = (): InstalledExtension => ({
  name: "memory", display_name: "Memory", version: "1.0.0", namespace: "memory", signature: "self-signed", signer: "CN=Me",
  installed_at: "2026-12-02T03:00:00Z", sensitive: ["api_token"], sandboxed: false, access: "runs with your full access", sandbox_unsupported: "", error: "",
});
const broken = (): InstalledExtension => ({
  name: "broken", display_name: "", version: "", namespace: "", signature: "", signer: "", installed_at: "", sensitive: null,
  sandboxed: false, access: "", sandbox_unsupported: "", error: "/x/extensions/broken/installed.json: unexpected end of JSON input; remove the extension and install it again",
});

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  app.extensionQueue = [];
  app.notices = [];
  vi.clearAllMocks();
});

async function render(list: InstalledExtension[]) {
  fake.extensions.mockResolvedValue(list);
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(ExtensionsSettings, { target }));
  await eventually(() => expect(target.querySelector("table, .empty")).not.toBeNull());
  const button = (label: string) => Array.from(target.querySelectorAll("button")).find((b) => b.textContent?.trim() === label);
  return { target, button };
}

describe("ExtensionsSettings", () => {
  it("lists the installed extensions and the damaged records", async () => {
    const { target } = await render([memory(), broken()]);
    const rows = target.querySelectorAll("tbody tr");
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain("Memory");
    expect(rows[0].textContent).toContain("1.0.0");
    expect(rows[0].textContent).toContain("self-signed by CN=Me");
    expect(rows[0].textContent).toContain("in the OS keychain: api_token");
    expect(rows[1].textContent).toContain("unexpected end of JSON input");
  });

  it("isolates a right-to-left display name from the text around it", async () => {
    const { target } = await render([{ ...memory(), display_name: "🧠 ذاكرة Memory שלום" }]);
    expect(target.querySelector("td bdi")?.textContent).toBe("🧠 ذاكرة Memory שלום");
  });

  it("removes only after the confirmation", async () => {
    const { target, button } = await render([memory()]);
    button("Remove")!.click();
    flushSync();
    expect(fake.removeExtension).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(button("Yes, remove"));
    button("Keep")!.click();
    flushSync();
    expect(button("Yes, remove")).toBeUndefined();
    button("Remove")!.click();
    flushSync();
    fake.removeExtension.mockResolvedValue([]);
    button("Yes, remove")!.click();
    await eventually(() => expect(target.querySelector(".empty")).not.toBeNull());
    expect(fake.removeExtension).toHaveBeenCalledWith("memory");
    expect(app.notices.at(-1)?.message).toContain("Removed Memory 1.0.0");
  });

  it("Install extension… opens the dialog for the chosen file; Alt+X too", async () => {
    const { button } = await render([]);
    fake.chooseExtensionFile.mockResolvedValue("/d/x.mcpb");
    button("Install extension…")!.click();
    await eventually(() => expect(app.extensionQueue.map((e) => e.path)).toEqual(["/d/x.mcpb"]));
    fake.chooseExtensionFile.mockResolvedValue("");
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "x", code: "KeyX", altKey: true }));
    await eventually(() => expect(fake.chooseExtensionFile).toHaveBeenCalledTimes(2));
    expect(app.extensionQueue).toHaveLength(1); // cancelled: nothing more
  });

  it("shows each extension's sandbox and toggles it for new chats", async () => {
    const words = "sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network";
    const { target } = await render([memory()]);
    const box = () => target.querySelector<HTMLButtonElement>("button[role=switch]")!;
    expect(box().closest("td")!.textContent!.trim()).toBe("Full access");
    expect(box().getAttribute("aria-checked")).toBe("false");
    expect(box().getAttribute("aria-label")).toBe("Run Memory in a sandbox");
    expect(box().title).toBe("runs with your full access");
    fake.setExtensionSandbox.mockResolvedValue([{ ...memory(), sandboxed: true, access: words }]);
    box().click();
    await eventually(() => expect(box().closest("td")!.textContent!.trim()).toBe("Sandboxed"));
    expect(fake.setExtensionSandbox).toHaveBeenCalledWith("memory", true);
    expect(box().getAttribute("aria-checked")).toBe("true");
    expect(box().title).toBe(words);
    expect(app.notices.at(-1)?.message).toBe("Memory now runs in a sandbox in new chats; open chats keep what they started with.");
    fake.setExtensionSandbox.mockResolvedValue([memory()]);
    box().click();
    await eventually(() => expect(box().closest("td")!.textContent!.trim()).toBe("Full access"));
    expect(fake.setExtensionSandbox).toHaveBeenLastCalledWith("memory", false);
  });

  it("cannot turn the sandbox on where the system cannot enforce it, and says why", async () => {
    const { target } = await render([{ ...memory(), sandbox_unsupported: "Landlock is not enabled in this kernel" }]);
    const box = target.querySelector<HTMLButtonElement>("button[role=switch]")!;
    expect(box.disabled).toBe(true);
    expect(box.title).toBe("This computer cannot enforce the sandbox: Landlock is not enabled in this kernel");
  });

  it("shows the record again when the toggle is refused", async () => {
    const { target } = await render([memory()]);
    fake.setExtensionSandbox.mockRejectedValue(new Error("extension memory cannot run in a sandbox on this computer"));
    target.querySelector<HTMLButtonElement>("button[role=switch]")!.click();
    await eventually(() => expect(target.querySelector("[role=alert]")?.textContent).toContain("cannot run in a sandbox"));
    expect(target.querySelector("button[role=switch]")!.getAttribute("aria-checked")).toBe("false");
    expect(fake.extensions).toHaveBeenCalledTimes(2); // listed again
  });
});

