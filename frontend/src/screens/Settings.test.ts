import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, tick, unmount } from "svelte";
import type { SavedPolicy, SettingsView } from "../lib/types";

// The Go side, as the bound methods answer (api.ts wraps them).
const view = (): SettingsView => ({
  settings: {
    provider: "openai", openai: { base_url: "", model: "llama3.2" }, anthropic: { base_url: "", model: "" },
    coworkers_dir: "", servers_path: "/home/ann/.vscode/mcp.json", approval_mode: "ask",
  },
  key_stored: { openai: false, anthropic: false }, keychain_errors: null, key_from_env: null,
  model: "openai llama3.2", model_error: "", model_warning: "", settings_file: "/home/ann/.config/OpenWorker/settings.json",
  servers_loaded: "/home/ann/.vscode/mcp.json", servers_error: "", servers_unreadable: false, servers_notices: null,
  server_inputs: [{ id: "memory-file", description: "Memory file name", password: false, answered: false }],
  run_flags: ["--coworkers /tmp/b"],
});
const fake = vi.hoisted(() => ({
  getSettings: vi.fn(), saveSettings: vi.fn(), setServerInput: vi.fn(), setApiKey: vi.fn(), info: vi.fn(),
  policies: vi.fn(), revokePolicy: vi.fn(),
}));
const saved = (): SavedPolicy => ({
  coworker: "device-assistant", tool: "device.battery_status_get", descriptor_digest: "sha256:0123456789abcdef0123456789abcdef",
  policy: "allow", created_at: "2026-12-01T14:05:00Z", updated_at: "2026-12-01T14:05:00Z",
});
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Settings } = await import("./Settings.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
});

async function render(policies: SavedPolicy[] = []): Promise<HTMLElement> {
  fake.policies.mockResolvedValue(policies);
  fake.revokePolicy.mockResolvedValue(undefined);
  fake.getSettings.mockResolvedValue(view());
  fake.saveSettings.mockResolvedValue(view());
  fake.setServerInput.mockResolvedValue(view());
  fake.setApiKey.mockResolvedValue(view());
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Settings, { target }));
  await vi.waitFor(() => expect(target.querySelector("form")).not.toBeNull(), { timeout: 30_000 });
  flushSync();
  return target;
}

// type writes value into input as a person does (bind:value listens to "input").
function type(input: HTMLInputElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

function enter(input: HTMLInputElement): KeyboardEvent {
  const e = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
  input.dispatchEvent(e);
  return e;
}

const field = (root: HTMLElement, label: string) =>
  [...root.querySelectorAll("label")].find((l) => l.textContent?.includes(label))!.querySelector("input")!;

describe("Settings", () => {
  it("saves an input's answer on Enter, not the Settings form", async () => {
    const root = await render();
    const answer = field(root, "(input memory-file)");
    type(answer, "notes.json");
    const e = enter(answer);
    await tick();
    expect(e.defaultPrevented).toBe(true); // the browser does not submit the form
    expect(fake.setServerInput).toHaveBeenCalledWith("memory-file", "notes.json");
    expect(fake.saveSettings).not.toHaveBeenCalled();
  });

  it("does nothing on Enter in an empty answer field", async () => {
    const root = await render();
    const e = enter(field(root, "(input memory-file)"));
    expect(e.defaultPrevented).toBe(true);
    expect(fake.setServerInput).not.toHaveBeenCalled();
    expect(fake.saveSettings).not.toHaveBeenCalled();
  });

  it("saves an API key on Enter, not the Settings form", async () => {
    const root = await render();
    const key = root.querySelectorAll<HTMLInputElement>('input[type="password"]')[1]; // Anthropic's
    type(key, "sk-ant-test");
    const e = enter(key);
    await tick();
    expect(e.defaultPrevented).toBe(true);
    expect(fake.setApiKey).toHaveBeenCalledWith("anthropic", "sk-ant-test");
    expect(fake.saveSettings).not.toHaveBeenCalled();
  });

  it("leaves Enter in the other fields to the form, which saves the settings", async () => {
    const root = await render();
    const e = enter(field(root, "Coworkers folder"));
    expect(e.defaultPrevented).toBe(false);
    root.querySelector("form")!.requestSubmit();
    await vi.waitFor(() => expect(fake.saveSettings).toHaveBeenCalledTimes(1), { timeout: 30_000 });
  });

  it("lists the saved always-allow answers and revokes one", async () => {
    const root = await render([saved()]);
    await vi.waitFor(() => expect(root.querySelector("table.policies")).not.toBeNull());
    const row = root.querySelector("table.policies tbody tr")!;
    const text = row.textContent ?? "";
    expect(text).toContain("device-assistant");
    expect(text).toContain("device.battery_status_get");
    expect(text).toContain("always allow");
    expect(text).toContain("0123456789ab");
    expect(text).not.toContain("sha256:");
    fake.policies.mockResolvedValue([]); // what the journal lists after the revoke
    row.querySelector<HTMLButtonElement>("button")!.click();
    await vi.waitFor(() => expect(root.querySelector(".permissions .empty")).not.toBeNull());
    expect(fake.revokePolicy).toHaveBeenCalledWith("device-assistant", "device.battery_status_get", "sha256:0123456789abcdef0123456789abcdef");
    expect(root.querySelector("table.policies")).toBeNull();
  });

  it("says when there are no saved answers", async () => {
    const root = await render();
    await vi.waitFor(() => expect(root.querySelector(".permissions .empty")?.textContent).toContain("No saved answers"));
  });

  it("asks before switching to Bypass; Keep asking leaves ask, Use Bypass saves bypass", async () => {
    const root = await render();
    const select = root.querySelector("select")!;
    const choose = (v: string) => {
      select.value = v;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      flushSync();
    };
    const dialog = () => root.querySelector('[role="alertdialog"]');
    const button = (label: string) => [...root.querySelectorAll("button")].find((b) => b.textContent === label)!;
    const save = async () => {
      root.querySelector("form")!.requestSubmit();
      await vi.waitFor(() => expect(fake.saveSettings).toHaveBeenCalled());
      return fake.saveSettings.mock.calls.at(-1)![0].approval_mode;
    };

    choose("bypass");
    expect(dialog()?.textContent).toContain("Tools run without asking you");
    expect(dialog()?.textContent).toContain("every call is still journaled");
    expect(select.value).toBe("ask"); // nothing chosen yet
    button("Keep asking").click();
    flushSync();
    expect(dialog()).toBeNull();
    expect(select.value).toBe("ask");
    expect(await save()).toBe("ask");

    choose("bypass");
    button("Use Bypass").click();
    flushSync();
    expect(dialog()).toBeNull();
    expect(select.value).toBe("bypass");
    fake.saveSettings.mockClear();
    expect(await save()).toBe("bypass");
  });
});

describe("Settings and run flags", () => {
  it("says which flags of this run are not saved", async () => {
    const root = await render();
    expect(root.querySelector(".run-flags")?.textContent).toContain("--coworkers /tmp/b");
    expect(root.querySelector(".run-flags")?.textContent).toContain("kept out of settings.json");
  });
});
