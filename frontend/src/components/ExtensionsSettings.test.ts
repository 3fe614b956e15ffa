import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { InstalledExtension } from "../lib/types";

const fake = vi.hoisted(() => ({ extensions: vi.fn(), removeExtension: vi.fn(), chooseExtensionFile: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: ExtensionsSettings } = await import("./ExtensionsSettings.svelte");
const { app } = await import("../lib/state.svelte");

const memory = (): InstalledExtension => ({
  name: "memory", display_name: "Memory", version: "1.0.0", namespace: "memory", signature: "self-signed", signer: "CN=Me",
  installed_at: "2026-12-02T03:00:00Z", sensitive: ["api_token"], error: "",
});
const broken = (): InstalledExtension => ({
  name: "broken", display_name: "", version: "", namespace: "", signature: "", signer: "", installed_at: "", sensitive: null,
  error: "/x/extensions/broken/installed.json: unexpected end of JSON input; remove the extension and install it again",
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
  await vi.waitFor(() => expect(target.querySelector("table, .empty")).not.toBeNull());
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
    await vi.waitFor(() => expect(target.querySelector(".empty")).not.toBeNull());
    expect(fake.removeExtension).toHaveBeenCalledWith("memory");
    expect(app.notices.at(-1)?.message).toContain("Removed Memory 1.0.0");
  });

  it("Install extension… opens the dialog for the chosen file; Alt+X too", async () => {
    const { button } = await render([]);
    fake.chooseExtensionFile.mockResolvedValue("/d/x.mcpb");
    button("Install extension…")!.click();
    await vi.waitFor(() => expect(app.extensionQueue.map((e) => e.path)).toEqual(["/d/x.mcpb"]));
    fake.chooseExtensionFile.mockResolvedValue("");
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "x", code: "KeyX", altKey: true }));
    await vi.waitFor(() => expect(fake.chooseExtensionFile).toHaveBeenCalledTimes(2));
    expect(app.extensionQueue).toHaveLength(1); // cancelled: nothing more
  });
});
