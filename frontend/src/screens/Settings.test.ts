import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, tick, unmount } from "svelte";
import type { ConnectionTest, ModelList, SavedPolicy, SettingsView } from "../lib/types";
import { eventually } from "../testing/eventually";

// The Go side, as the bound methods answer (api.ts wraps them).
const view = (): SettingsView => ({
  settings: {
    provider: "openai", openai: { base_url: "", model: "llama3.2" }, anthropic: { base_url: "", model: "" },
    coworkers_dir: "", servers_path: "/home/ann/.vscode/mcp.json", approval_mode: "ask",
  },
  key_stored: { openai: false, anthropic: false }, keychain_errors: null, key_from_env: null,
  model: "openai llama3.2",
  effective: { openai: { base_url: "http://127.0.0.1:11434/v1", model: "llama3.2" }, anthropic: { base_url: "https://api.anthropic.com", model: "claude-sonnet-4-5" } },
  model_error: "", model_warning: "", settings_file: "/home/ann/.config/OpenWorker/settings.json",
  servers_loaded: "/home/ann/.vscode/mcp.json", servers_error: "", servers_unreadable: false, servers_notices: null,
  server_inputs: [{ id: "memory-file", description: "Memory file name", password: false, answered: false }],
  run_flags: ["--coworkers /tmp/b"],
});
const fake = vi.hoisted(() => ({
  getSettings: vi.fn(), saveSettings: vi.fn(), setServerInput: vi.fn(), setApiKey: vi.fn(), info: vi.fn(),
  policies: vi.fn(), revokePolicy: vi.fn(), listModels: vi.fn(), testConnection: vi.fn(), copyDiagnostics: vi.fn(),
}));
const ollama = (): ModelList => ({ provider: "openai", base_url: "http://127.0.0.1:11434/v1", api: "ollama", models: ["llama3.2:latest", "qwen2.5:7b"] });
const saved = (): SavedPolicy => ({
  coworker: "device-assistant", tool: "device.battery_status_get", descriptor_digest: "sha256:0123456789abcdef0123456789abcdef",
  policy: "allow", created_at: "2026-12-01T14:05:00Z", updated_at: "2026-12-01T14:05:00Z",
});
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Settings } = await import("./Settings.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
});

async function render(policies: SavedPolicy[] = [], models: ModelList | Error = ollama()): Promise<HTMLElement> {
  fake.policies.mockResolvedValue(policies);
  if (models instanceof Error) fake.listModels.mockRejectedValue(models);
  else fake.listModels.mockResolvedValue(models);
  fake.revokePolicy.mockResolvedValue(undefined);
  fake.getSettings.mockResolvedValue(view());
  fake.saveSettings.mockResolvedValue(view());
  fake.setServerInput.mockResolvedValue(view());
  fake.setApiKey.mockResolvedValue(view());
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Settings, { target }));
  await eventually(() => expect(target.querySelector("form")).not.toBeNull());
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
    await eventually(() => expect(fake.saveSettings).toHaveBeenCalledTimes(1));
  });

  it("lists the saved always-allow answers by coworker name, no Version column, and revokes one", async () => {
    app.coworkers = { dir: "/c", broken: null, error: "", coworkers: [
      { id: "device-assistant", name: "Device Assistant", description: "", version: "1", dir: "/c/d", tools: null, left_out: null },
    ] };
    const root = await render([saved()]);
    await eventually(() => expect(root.querySelector("table.policies")).not.toBeNull());
    expect(Array.from(root.querySelectorAll("table.policies th")).map((th) => th.textContent)).toEqual(["Coworker", "Tool", "Answer", "Saved", ""]);
    const row = root.querySelector("table.policies tbody tr")!;
    const cells = Array.from(row.querySelectorAll("td"));
    expect(cells[0].textContent).toBe("Device Assistant");
    expect(cells[0].title).toContain("device-assistant");
    expect(cells[1].textContent).toBe("device.battery_status_get");
    expect(cells[1].querySelector("code")!.title).toContain("sha256:0123456789abcdef");
    const text = row.textContent ?? "";
    expect(text).toContain("always allow");
    expect(text).not.toMatch(/[0-9a-f]{12}/);
    expect(row.querySelector("button")!.getAttribute("aria-label")).toBe("Revoke device.battery_status_get for Device Assistant");
    fake.policies.mockResolvedValue([]); // what the journal lists after the revoke
    row.querySelector<HTMLButtonElement>("button")!.click();
    await eventually(() => expect(root.querySelector(".permissions .empty")).not.toBeNull());
    expect(fake.revokePolicy).toHaveBeenCalledWith("device-assistant", "device.battery_status_get", "sha256:0123456789abcdef0123456789abcdef");
    expect(root.querySelector("table.policies")).toBeNull();
    app.coworkers = null;
  });

  it("lists a Never answer as Never, with Revoke", async () => {
    const root = await render([{ ...saved(), tool: "files.delete", policy: "deny" }]);
    await eventually(() => expect(root.querySelector("table.policies tbody tr.never")).not.toBeNull());
    const row = root.querySelector("table.policies tbody tr.never")!;
    expect(row.querySelector(".never-word")!.textContent).toBe("Never");
    expect(row.textContent).not.toContain("always");
    fake.policies.mockResolvedValue([]);
    row.querySelector<HTMLButtonElement>("button")!.click();
    await eventually(() => expect(fake.revokePolicy).toHaveBeenCalledWith("device-assistant", "files.delete", "sha256:0123456789abcdef0123456789abcdef"));
  });

  it("says when there are no saved answers", async () => {
    const root = await render();
    await eventually(() => expect(root.querySelector(".permissions .empty")?.textContent).toContain("No saved answers"));
  });

  it("asks before switching to Bypass; Keep asking leaves ask, Use Bypass saves bypass", async () => {
    const root = await render();
    const select = [...root.querySelectorAll("select")].find((s) => s.querySelector('option[value="bypass"]'))!;
    const choose = (v: string) => {
      select.value = v;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      flushSync();
    };
    const dialog = () => root.querySelector('[role="alertdialog"]');
    const button = (label: string) => [...root.querySelectorAll("button")].find((b) => b.textContent === label)!;
    const save = async () => {
      root.querySelector("form")!.requestSubmit();
      await eventually(() => expect(fake.saveSettings).toHaveBeenCalled());
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

  describe("model picker", () => {
    const button = (root: HTMLElement, label: string) => [...root.querySelectorAll("button")].find((b) => b.textContent === label)!;
    const modelSelect = (root: HTMLElement) => root.querySelector<HTMLSelectElement>('select[aria-label="Models on the server"]');
    const connected = (over: Partial<ConnectionTest> = {}): ConnectionTest => ({
      ok: true, provider: "openai", base_url: "http://127.0.0.1:11434/v1", model: "llama3.2", latency_ms: 7, via: "models",
      listed: true, models: ["llama3.2:latest", "qwen2.5:7b"], error: "", reason: "", status: 0, advice: "", ...over,
    });

    it("lists a local server's models on opening, and picking one sets the model", async () => {
      const root = await render();
      await eventually(() => expect(modelSelect(root)).not.toBeNull());
      expect(fake.listModels).toHaveBeenCalledTimes(1); // the selected provider only: Anthropic's is remote
      expect(fake.listModels).toHaveBeenCalledWith("openai", "", "");
      const sel = modelSelect(root)!;
      expect([...sel.options].map((o) => o.value)).toEqual(["", "llama3.2:latest", "qwen2.5:7b"]);
      expect(sel.value).toBe("llama3.2:latest"); // "llama3.2" is Ollama's llama3.2:latest
      expect(root.textContent).toContain("2 models at http://127.0.0.1:11434/v1.");
      sel.value = "qwen2.5:7b";
      sel.dispatchEvent(new Event("change", { bubbles: true }));
      flushSync();
      expect(field(root, "Model").value).toBe("qwen2.5:7b");
      fake.listModels.mockResolvedValue({ ...ollama(), models: ["llama3.2:latest", "qwen2.5:7b", "mistral:7b"] });
      button(root, "Refresh").click();
      await eventually(() => expect(modelSelect(root)!.options.length).toBe(4));
    });

    it("does not ask a remote server until asked, with the typed key", async () => {
      const remote = view();
      remote.effective!.openai.base_url = "https://api.openai.com/v1";
      fake.getSettings.mockResolvedValueOnce(remote);
      const root = await render();
      await tick();
      expect(fake.listModels).not.toHaveBeenCalled();
      type(root.querySelectorAll<HTMLInputElement>('input[type="password"]')[0], "sk-typed");
      button(root, "List models").click();
      await eventually(() => expect(fake.listModels).toHaveBeenCalledWith("openai", "", "sk-typed"));
    });

    it("Test connection says the latency, or the exact failure", async () => {
      const warned = view();
      warned.model_warning = "No model server answers at http://127.0.0.1:11434/v1 yet.";
      fake.getSettings.mockResolvedValueOnce(warned);
      const root = await render([], new Error("could not list the models: connection refused")); // not up when Settings opened
      expect(root.querySelector(".banner.warning")?.textContent).toContain("No model server answers");
      fake.testConnection.mockResolvedValue(connected());
      button(root, "Test connection").click();
      await eventually(() => expect(root.querySelector(".connection")?.textContent).toBe("Connected in 7 ms."));
      expect(fake.testConnection).toHaveBeenCalledWith("openai", "", "llama3.2", "");
      // The server answers now: the inline warning goes, and the list is there.
      await eventually(() => expect(root.querySelector(".banner.warning")).toBeNull());
      expect(modelSelect(root)?.value).toBe("llama3.2:latest");
      expect(root.textContent).not.toContain("could not list the models"); // stale once the server answers
      fake.testConnection.mockResolvedValue(connected({ ok: false, error: "GET http://127.0.0.1:11434/v1/models: connection refused: nothing listens at 127.0.0.1:11434",
        reason: "refused", advice: "Start it (Ollama: ollama serve), or choose another provider and model in Settings." }));
      button(root, "Test connection").click();
      await eventually(() => expect(root.querySelector(".connection")?.textContent).toContain("Connection failed: GET http://127.0.0.1:11434/v1/models: connection refused"));
      expect(root.querySelector(".connection")!.classList.contains("warning-text")).toBe(true);
      expect(root.querySelector(".connection")!.textContent).toContain("ollama serve");
    });

    it("Alt+T tests the selected provider's connection", async () => {
      const root = await render();
      fake.testConnection.mockResolvedValue(connected({ latency_ms: 0 }));
      const e = new KeyboardEvent("keydown", { key: "†", code: "KeyT", altKey: true, bubbles: true, cancelable: true });
      window.dispatchEvent(e);
      await eventually(() => expect(root.querySelector(".connection")?.textContent).toBe("Connected in under 1 ms."));
      expect(e.defaultPrevented).toBe(true);
      expect(fake.testConnection).toHaveBeenCalledTimes(1); // the OpenAI-compatible one only
      expect(fake.testConnection).toHaveBeenCalledWith("openai", "", "llama3.2", "");
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "t", bubbles: true }));
      await tick();
      expect(fake.testConnection).toHaveBeenCalledTimes(1); // a plain "t" is typing
    });

    it("flags a model the server does not list before saving; Save anyway saves it", async () => {
      const root = await render();
      await eventually(() => expect(modelSelect(root)).not.toBeNull());
      type(field(root, "Model"), "llama3");
      expect(root.querySelector(".unlisted")?.textContent).toContain('"llama3" is not among the models this server lists.');
      root.querySelector("form")!.requestSubmit();
      await tick();
      const dialog = root.querySelector('[role="alertdialog"]')!;
      expect(dialog.textContent).toContain('"llama3" is not a model the server lists.');
      expect(dialog.textContent).toContain("llama3.2:latest, qwen2.5:7b");
      expect(fake.saveSettings).not.toHaveBeenCalled();
      button(root, "Save anyway").click();
      await eventually(() => expect(fake.saveSettings).toHaveBeenCalledTimes(1));
      expect(fake.saveSettings.mock.calls[0][0].openai.model).toBe("llama3");
      // A listed name (Ollama's tag left out) saves at once.
      type(field(root, "Model"), "qwen2.5:7b");
      root.querySelector("form")!.requestSubmit();
      await eventually(() => expect(fake.saveSettings).toHaveBeenCalledTimes(2));
    });

    it("saves any name when the list cannot be fetched (an offline server)", async () => {
      const root = await render([], new Error("could not list the models: GET http://127.0.0.1:11434/v1/models: connection refused: nothing listens at 127.0.0.1:11434"));
      await eventually(() => expect(root.querySelector(".model-status")?.textContent).toContain("connection refused"));
      type(field(root, "Model"), "whatever-model");
      root.querySelector("form")!.requestSubmit();
      await eventually(() => expect(fake.saveSettings).toHaveBeenCalledTimes(1));
      expect(root.querySelector('[role="alertdialog"]')).toBeNull();
    });

    it("forgets the list when the base URL changes", async () => {
      const root = await render();
      await eventually(() => expect(modelSelect(root)).not.toBeNull());
      fake.listModels.mockRejectedValue(new Error("could not list the models: GET https://example.invalid/v1/models: DNS"));
      const url = field(root, "Base URL");
      type(url, "https://models.example.com/v1");
      url.dispatchEvent(new Event("change", { bubbles: true }));
      flushSync();
      expect(modelSelect(root)).toBeNull();
      expect(fake.listModels).toHaveBeenCalledTimes(1); // remote: not asked without a click
      type(field(root, "Model"), "anything");
      root.querySelector("form")!.requestSubmit();
      await eventually(() => expect(fake.saveSettings).toHaveBeenCalledTimes(1));
    });
  });
});

describe("Settings and run flags", () => {
  it("says which flags of this run are not saved", async () => {
    const root = await render();
    expect(root.querySelector(".run-flags")?.textContent).toContain("--coworkers /tmp/b");
    expect(root.querySelector(".run-flags")?.textContent).toContain("kept out of settings.json");
  });
});

describe("Settings' Copy diagnostics", () => {
  const button = (root: HTMLElement) => [...root.querySelectorAll("button")].find((b) => b.textContent === "Copy diagnostics")!;
  it("copies the report and says so; a refusal is shown as an error", async () => {
    const root = await render();
    fake.copyDiagnostics.mockResolvedValueOnce("[openworker]\n");
    button(root).click();
    await eventually(() => expect(app.notices.map((n) => n.message)).toContain("Diagnostics copied"));
    expect(fake.copyDiagnostics).toHaveBeenCalledTimes(1);
    fake.copyDiagnostics.mockRejectedValueOnce(new Error("The clipboard did not take the diagnostics."));
    button(root).click();
    await eventually(() => expect(app.notices.find((n) => n.message === "The clipboard did not take the diagnostics.")?.level).toBe("error"));
  });
  it("copies on Alt+I from anywhere in Settings", async () => {
    await render();
    fake.copyDiagnostics.mockResolvedValueOnce("[openworker]\n");
    const e = new KeyboardEvent("keydown", { key: "i", code: "KeyI", altKey: true, bubbles: true, cancelable: true });
    window.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    await eventually(() => expect(fake.copyDiagnostics).toHaveBeenCalledTimes(1));
  });
});
