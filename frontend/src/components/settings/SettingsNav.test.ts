import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, tick, unmount } from "svelte";
import type { SettingsView } from "../../lib/types";
import { eventually } from "../../testing/eventually";
import { paintTimings, endSplash } from "../../lib/paint";

const view = (): SettingsView => ({
  settings: {
    provider: "openai", openai: { base_url: "", model: "llama3.2" }, anthropic: { base_url: "", model: "" },
    coworkers_dir: "", servers_path: "", approval_mode: "ask",
  },
  key_stored: { openai: false, anthropic: false }, keychain_errors: null, key_from_env: null, model: "openai llama3.2",
  effective: { openai: { base_url: "https://api.example.com/v1", model: "llama3.2" }, anthropic: { base_url: "https://api.anthropic.com", model: "" } },
  model_error: "", model_warning: "", settings_file: "/home/ann/.config/OpenWorker/settings.json", servers_loaded: "", servers_error: "",
  servers_unreadable: false, servers_notices: null, server_inputs: null, run_flags: null,
});
const fake = vi.hoisted(() => ({
  getSettings: vi.fn(), saveSection: vi.fn(), info: vi.fn(), policies: vi.fn(), listModels: vi.fn(), signedIn: vi.fn(), serversInUse: vi.fn(),
  extensions: vi.fn(), updateStatus: vi.fn(), copyDiagnostics: vi.fn(),
}));
vi.mock("../../lib/api", () => ({ api: fake }));

const { default: Settings } = await import("../../screens/Settings.svelte");
const { app } = await import("../../lib/state.svelte");
const { sections } = await import("./sections");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
});

async function render(section = "model"): Promise<HTMLElement> {
  app.settingsSection = section;
  for (const f of [fake.policies, fake.signedIn, fake.serversInUse, fake.extensions]) f.mockResolvedValue([]);
  fake.info.mockResolvedValue({ version: "1.2.3" });
  fake.updateStatus.mockResolvedValue({ enabled: true, state: "idle" });
  fake.listModels.mockRejectedValue(new Error("not asked"));
  fake.getSettings.mockResolvedValue(view());
  fake.saveSection.mockResolvedValue(view());
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Settings, { target }));
  await eventually(() => expect(target.querySelector(".settings-section fieldset, .settings-section .support")).not.toBeNull());
  flushSync();
  return target;
}
const navButtons = (root: HTMLElement) => [...root.querySelectorAll<HTMLButtonElement>('nav[aria-label="Settings sections"] button')];
const key = (el: HTMLElement, k: string) => {
  const e = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
  el.dispatchEvent(e);
  flushSync();
  return e;
};

const last = sections.length - 1;
const at = (id: string) => sections.findIndex((s) => s.id === id);

describe("Settings sections", () => {
  it("lists every section, the shown one marked aria-current", async () => {
    const root = await render();
    expect(navButtons(root).map((b) => b.textContent)).toEqual(sections.map((s) => s.label));
    expect(sections.map((s) => s.label)).toEqual(expect.arrayContaining(
      ["Model", "Coworkers", "Servers", "Extensions", "Permissions", "Notifications", "Appearance", "Diagnostics", "About"]));
    expect(sections.map((s) => s.id)).toContain("diagnostics");
    const current = navButtons(root).filter((b) => b.getAttribute("aria-current") === "true");
    expect(current.map((b) => b.textContent)).toEqual(["Model"]);
    // One Tab stop: the entry shown.
    expect(navButtons(root).map((b) => b.tabIndex)).toEqual(sections.map((_, i) => (i === 0 ? 0 : -1)));
    expect(root.querySelector(".settings-section h2")?.textContent).toBe("Model");
  });

  it("moves between sections with the arrow keys, Home and End, the focus following", async () => {
    const root = await render();
    app.info = { version: "1.2.3" } as typeof app.info;
    navButtons(root)[0].focus();
    key(navButtons(root)[0], "ArrowDown");
    expect(app.settingsSection).toBe("coworkers");
    expect(document.activeElement).toBe(navButtons(root)[1]);
    expect(navButtons(root)[1].getAttribute("aria-current")).toBe("true");
    expect(navButtons(root)[0].hasAttribute("aria-current")).toBe(false);
    await eventually(() => expect(root.querySelector(".settings-section h2")?.textContent).toBe("Coworkers"));
    key(navButtons(root)[1], "End");
    expect(app.settingsSection).toBe("about");
    key(navButtons(root)[last], "ArrowDown"); // wraps
    expect(app.settingsSection).toBe("model");
    key(navButtons(root)[0], "ArrowUp");
    expect(app.settingsSection).toBe("about");
    await eventually(() => expect(root.querySelector(".about")?.textContent).toContain("1.2.3"));
    const plain = key(navButtons(root)[last], "a");
    expect(plain.defaultPrevented).toBe(false);
  });

  it("keeps the chosen section when Settings is shown again", async () => {
    let root = await render("permissions");
    navButtons(root)[at("diagnostics")].click();
    flushSync();
    unmount(mounted.pop()!); // another screen
    root = document.createElement("div");
    document.body.append(root);
    mounted.push(mount(Settings, { target: root }));
    await eventually(() => expect(root.querySelector(".support")).not.toBeNull());
    expect(root.querySelector('[aria-current="true"]')?.textContent).toBe("Diagnostics");
  });

  it("saves one section's fields and keeps another section's unsaved edit", async () => {
    const root = await render("coworkers");
    const folder = root.querySelector<HTMLInputElement>(".settings-section input")!;
    folder.value = "/home/ann/Unsaved";
    folder.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    expect(root.querySelector(".save-status")?.textContent).toBe("Unsaved changes.");
    navButtons(root)[at("permissions")].click(); // its own Save
    await eventually(() => expect(root.querySelector(".save-bar button")?.textContent).toBe("Save approval mode"));
    root.querySelector<HTMLButtonElement>(".save-bar button")!.click();
    await eventually(() => expect(root.querySelector(".save-status")?.textContent).toContain("Saved."));
    expect(fake.saveSection).toHaveBeenCalledTimes(1);
    expect(fake.saveSection.mock.calls[0][0]).toBe("permissions");
    navButtons(root)[1].click(); // back: the edit is still there
    await eventually(() => expect(root.querySelector<HTMLInputElement>(".settings-section input")?.value).toBe("/home/ann/Unsaved"));
  });

  it("shows a save error in the section's reserved status line", async () => {
    const root = await render("coworkers");
    fake.saveSection.mockRejectedValueOnce(new Error("coworkers folder /nope: no such folder"));
    root.querySelector<HTMLButtonElement>(".save-bar button")!.click();
    await eventually(() => expect(root.querySelector(".save-status")?.textContent).toContain("no such folder"));
    const line = root.querySelector(".save-status")!;
    expect(line.getAttribute("role")).toBe("status");
    expect(line.classList.contains("warning-text")).toBe(true);
  });

  it("shows the Extensions section on Alt+X from another section", async () => {
    const root = await render("model");
    const e = new KeyboardEvent("keydown", { key: "≈", code: "KeyX", altKey: true, bubbles: true, cancelable: true });
    window.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    await eventually(() => expect(app.settingsSection).toBe("extensions"));
    await tick();
    expect(root.querySelector(".settings-section h2")?.textContent).toBe("Extensions");
  });
});

describe("paint timings", () => {
  it("reads the browser's paint entries, 0 for those it lacks", () => {
    const entries: Record<string, unknown[]> = { paint: [{ name: "first-contentful-paint", startTime: 87.6 }], navigation: [{ domInteractive: 31.2 }] };
    const perf = { getEntriesByType: (t: string) => (entries[t] ?? []) as PerformanceEntry[] };
    expect(paintTimings(perf, 240.2)).toEqual({ html_parsed_ms: 31, first_paint_ms: 0, first_contentful_paint_ms: 88, mounted_ms: 240 });
    expect(paintTimings({ getEntriesByType: () => [] }, 5).html_parsed_ms).toBe(0);
  });
  it("removes the splash after a frame and reports once", async () => {
    const splash = document.createElement("div");
    splash.id = "splash";
    document.body.append(splash);
    const report = vi.fn().mockResolvedValue(undefined);
    endSplash(document, report);
    await eventually(() => expect(document.getElementById("splash")).toBeNull());
    expect(report).toHaveBeenCalledTimes(1);
  });
});
