import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import { eventually } from "../testing/eventually";
import type { AppInfo, ConnectionTest, CoworkerInfo, OllamaFound } from "../lib/types";

const fake = vi.hoisted(() => ({
  findOllama: vi.fn(), useModel: vi.fn(), testConnection: vi.fn(), finishSetup: vi.fn(), info: vi.fn(), openChat: vi.fn(),
}));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: FirstRun } = await import("./FirstRun.svelte");
const { app } = await import("../lib/state.svelte");

const running = (): OllamaFound => ({ running: true, url: "http://127.0.0.1:11434", base_url: "http://127.0.0.1:11434/v1", models: ["qwen2.5:7b", "llama3.2:latest"], error: "" });
const notRunning = (): OllamaFound => ({ running: false, url: "http://127.0.0.1:11434", base_url: "http://127.0.0.1:11434/v1", models: null,
  error: "Ollama is not running on this computer (nothing answers at http://127.0.0.1:11434). Start it (ollama serve) and try again, or use an API key instead." });
const ok = (): ConnectionTest => ({ ok: true, provider: "openai", base_url: "http://127.0.0.1:11434/v1", model: "llama3.2:latest", latency_ms: 12, via: "models", listed: true, models: ["llama3.2:latest"], error: "", reason: "", status: 0, advice: "" });
const coworker = (id: string, name: string): CoworkerInfo => ({ id, name, description: `${name} helps.`, version: "1.0.0", dir: `/c/${id}`, tools: [], left_out: null });

const mounted: ReturnType<typeof mount>[] = [];
let closed = 0;
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
  document.body.innerHTML = "";
  closed = 0;
});

async function render(found: OllamaFound = running()): Promise<HTMLElement> {
  fake.findOllama.mockResolvedValue(found);
  fake.useModel.mockResolvedValue({});
  fake.testConnection.mockResolvedValue(ok());
  fake.finishSetup.mockResolvedValue(undefined);
  fake.info.mockResolvedValue({ model: "openai llama3.2:latest" } as AppInfo);
  fake.openChat.mockResolvedValue({ session_id: "s1", coworker: "device-assistant" });
  app.coworkers = { dir: "/c", coworkers: [coworker("notes-keeper", "Notes Keeper"), coworker("device-assistant", "Device Assistant"), { ...coworker("slow", "Slow"), starting: true }], broken: null, error: "" };
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(FirstRun, { target, props: { onclose: () => closed++ } }));
  await eventually(() => expect(fake.findOllama).toHaveBeenCalled());
  await settle();
  return target;
}
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
};
const button = (root: ParentNode, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;
const step = (root: ParentNode) => root.querySelector<HTMLElement>(".setup-step")!.dataset.step;
async function press(root: ParentNode, text: string) {
  button(root, text).click();
  await settle();
}
function type(input: HTMLInputElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}
const field = (root: HTMLElement, label: string) =>
  [...root.querySelectorAll("label")].find((l) => l.textContent?.trim().startsWith(label))!.querySelector("input")!;

describe("first-run setup", () => {
  it("walks Ollama → Test connection → coworker → first chat, focusing each step's first control", async () => {
    const root = await render();
    await eventually(() => expect(root.querySelectorAll("input[name=ollama-model]").length).toBe(2));
    // llama3.2 (the default model) is preselected and has the focus.
    const chosen = root.querySelector<HTMLInputElement>("input[name=ollama-model]:checked")!;
    expect(chosen.value).toBe("llama3.2:latest");
    await eventually(() => expect(document.activeElement).toBe(chosen));
    expect(root.textContent).toContain("Ollama answers at http://127.0.0.1:11434 with 2 models.");

    // Enter on the chosen model takes "Use this model".
    chosen.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    await settle();
    await eventually(() => expect(step(root)).toBe("test"));
    expect(fake.useModel).toHaveBeenCalledWith("openai", "http://127.0.0.1:11434/v1", "llama3.2:latest", "");
    await eventually(() => expect(document.activeElement).toBe(button(root, "Test connection")));

    await press(root, "Test connection");
    expect(fake.testConnection).toHaveBeenCalledWith("openai", "http://127.0.0.1:11434/v1", "llama3.2:latest", "");
    await eventually(() => expect(root.querySelector(".connection")?.textContent).toContain("Connected in 12 ms"));
    await eventually(() => expect(document.activeElement).toBe(button(root, "Continue")));

    await press(root, "Continue");
    await eventually(() => expect(step(root)).toBe("coworker"));
    const starters = [...root.querySelectorAll<HTMLInputElement>("input[name=starter]")];
    expect(starters.map((s) => s.value)).toEqual(["notes-keeper", "device-assistant"]); // not the one still starting
    expect(starters[1].checked).toBe(true);
    await eventually(() => expect(document.activeElement).toBe(starters[1]));
    starters[0].click();
    flushSync();

    await press(root, "Continue");
    await eventually(() => expect(step(root)).toBe("chat"));
    expect(root.textContent).toContain("Start a chat with Notes Keeper");
    await eventually(() => expect(document.activeElement).toBe(button(root, "Start chat")));
    await press(root, "Start chat");
    await eventually(() => expect(closed).toBe(1));
    expect(fake.finishSetup).toHaveBeenCalledTimes(1);
    expect(fake.openChat).toHaveBeenCalledWith("notes-keeper");
  });

  it("keeps a failed finish as a toast past the setup and the chat it opens (app scope)", async () => {
    app.notices = [];
    const root = await render();
    await press(root, "Use this model");
    await press(root, "Test connection");
    await press(root, "Continue");
    await press(root, "Continue");
    await eventually(() => expect(step(root)).toBe("chat"));
    fake.finishSetup.mockRejectedValueOnce(new Error("cannot write settings.json: disk full"));
    await press(root, "Start chat");
    await eventually(() => expect(closed).toBe(1));
    expect(app.view).toEqual({ name: "chat", sessionId: "s1" });
    expect(app.notices.map((n) => [n.level, n.message, n.scope])).toEqual([["error", "cannot write settings.json: disk full", "app"]]);
    app.notices = [];
  });

  it("says Ollama is not running and offers the API-key path; the key goes to useModel, not kept in the form", async () => {
    const root = await render(notRunning());
    expect(root.querySelector(".ollama-error")?.textContent).toContain("Ollama is not running on this computer");
    expect(button(root, "Try again")).toBeTruthy();
    const keyPath = button(root, "Use an API key instead");
    expect(keyPath.classList.contains("primary")).toBe(true);
    await eventually(() => expect(document.activeElement).toBe(keyPath));

    await press(root, "Use an API key instead");
    await eventually(() => expect(step(root)).toBe("key"));
    const first = root.querySelector<HTMLInputElement>("input[name=setup-provider]")!;
    await eventually(() => expect(document.activeElement).toBe(first));
    root.querySelector<HTMLInputElement>("input[name=setup-provider][value=anthropic]")!.click();
    flushSync();
    expect(field(root, "Base URL").placeholder).toBe("https://api.anthropic.com");
    type(field(root, "Model"), "claude-test");
    type(field(root, "API key"), "sk-ant-secret");
    expect(field(root, "API key").type).toBe("password");
    await press(root, "Save and continue");
    await eventually(() => expect(step(root)).toBe("test"));
    expect(fake.useModel).toHaveBeenCalledWith("anthropic", "", "claude-test", "sk-ant-secret");
    // Test connection uses the stored key (""), as Settings' button does.
    await press(root, "Test connection");
    expect(fake.testConnection).toHaveBeenCalledWith("anthropic", "", "claude-test", "");
    await press(root, "Back");
    await eventually(() => expect(step(root)).toBe("model"));
  });

  it("shows a save error on the key step and stays there", async () => {
    const root = await render(notRunning());
    await press(root, "Use an API key instead");
    fake.useModel.mockRejectedValueOnce(new Error(`OpenAI-compatible base URL "ftp://x": want an absolute http(s) URL`));
    type(field(root, "Base URL"), "ftp://x");
    await press(root, "Save and continue");
    await eventually(() => expect(root.querySelector("[role=alert]")?.textContent).toContain("ftp://x"));
    expect(step(root)).toBe("key");
  });

  it("says where the key goes instead when the computer has no keychain", async () => {
    app.info = { keychain_error: "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)" } as AppInfo;
    try {
      const root = await render(notRunning());
      await press(root, "Use an API key instead");
      const note = root.querySelector(".no-keychain")!.textContent!;
      expect(note).toContain("no OS keychain the app can use");
      expect(note).toContain("OPENAI_API_KEY");
      expect(root.textContent).not.toContain("The key is kept in the OS keychain");
    } finally {
      app.info = null;
    }
  });

  it("Skip setup and Esc close it and mark it done, on any step", async () => {
    let root = await render();
    await press(root, "Skip setup");
    await eventually(() => expect(closed).toBe(1));
    expect(fake.finishSetup).toHaveBeenCalledTimes(1);
    mounted.splice(0).forEach((c) => unmount(c));

    root = await render();
    await press(root, "Use this model");
    await eventually(() => expect(step(root)).toBe("test"));
    const e = new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true });
    document.activeElement!.dispatchEvent(e);
    await eventually(() => expect(closed).toBe(2));
    expect(e.defaultPrevented).toBe(true);
    expect(fake.finishSetup).toHaveBeenCalledTimes(2);
  });

  it("keeps Tab in the dialog: past the last control to the first, and back", async () => {
    const root = await render();
    const chosen = root.querySelector<HTMLInputElement>("input[name=ollama-model]:checked")!;
    await eventually(() => expect(document.activeElement).toBe(chosen));
    const last = button(root, "Use an API key instead");
    last.focus();
    const tab = new KeyboardEvent("keydown", { key: "Tab", bubbles: true, cancelable: true });
    last.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(chosen); // the checked model: the group's stop
    const back = new KeyboardEvent("keydown", { key: "Tab", shiftKey: true, bubbles: true, cancelable: true });
    chosen.dispatchEvent(back);
    expect(document.activeElement).toBe(last);
    // In between, Tab is the browser's.
    const mid = new KeyboardEvent("keydown", { key: "Tab", bubbles: true, cancelable: true });
    button(root, "Use this model").dispatchEvent(mid);
    expect(mid.defaultPrevented).toBe(false);
  });

  it("names every control and marks the current step", async () => {
    const root = await render();
    const dialog = root.querySelector("[role=dialog]")!;
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(document.getElementById(dialog.getAttribute("aria-labelledby")!)?.textContent).toBe("Set up OpenWorker");
    expect(root.querySelector("[aria-current=step]")?.textContent).toBe("Model");
    for (const el of root.querySelectorAll<HTMLElement>("button, input")) {
      const name = el.textContent?.trim() || el.getAttribute("aria-label") || el.closest("label")?.textContent?.trim();
      expect(name, el.outerHTML).toBeTruthy();
    }
  });
});
