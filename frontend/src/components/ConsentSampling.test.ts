import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { PendingApproval } from "../lib/types";
import { reactiveProps } from "./testprops.svelte";

const fake = vi.hoisted(() => ({ respondApproval: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: ConsentModal } = await import("./ConsentModal.svelte");

// A sampling request as the harness sends it (consent.Request.Sampling).
const pending = (): PendingApproval => ({
  id: "ap1", deadline: "0001-01-01T00:00:00Z",
  request: {
    session_id: "s1", turn_id: "t1", call_id: "c1", coworker: "helper", coworker_name: "Helper",
    tool: "everything.trigger-sampling-request", description: "everything asks your model for a completion", provider: "mcp:everything",
    placement: "on this computer", classification: "sampling", risk: "read_only", arguments: {},
    sampling: {
      namespace: "everything", server_name: "mcp-servers/everything", system_prompt: "You are a helpful test server.",
      messages: [{ role: "user", text: "What is the capital of France?" }, { role: "assistant", text: "[image image/png, 10 bytes: not sent]" }],
      max_tokens: 4096, asked_max_tokens: 100000, model: "openai-compatible http://127.0.0.1:1/v1 model test", invocation: "inv_1", seq: 1,
    },
  },
});

const mounted: ReturnType<typeof mount>[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  fake.respondApproval.mockResolvedValue(undefined);
});
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  vi.clearAllMocks();
  vi.useRealTimers();
});

function render() {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(ConsentModal, { target, props: reactiveProps({ pending: pending(), waiting: 1, mac: false }) }));
  flushSync();
  return { target, dialog: target.querySelector<HTMLElement>("[role=alertdialog]")!, buttons: Array.from(target.querySelectorAll("button")) };
}

function press(key: string, init: KeyboardEventInit = {}) {
  const ev = new KeyboardEvent("keydown", { key, code: `Key${key.toUpperCase()}`, bubbles: true, cancelable: true, ...init });
  document.activeElement!.dispatchEvent(ev);
  flushSync();
}

describe("ConsentModal, sampling variant", () => {
  it("shows the messages as plain text, the system prompt, the cap and the model; offers only Send once and Deny", async () => {
    const { target, buttons } = render();
    expect(target.querySelector("#consent-title")?.textContent).toContain("everything");
    const text = target.querySelector("pre.sampling-text")!.textContent!;
    expect(text).toContain("[system]\nYou are a helpful test server.");
    expect(text).toContain("[user]\nWhat is the capital of France?");
    expect(text).toContain("[image image/png, 10 bytes: not sent]");
    expect(target.querySelector(".sampling-model")?.textContent).toContain("model test");
    expect(target.textContent).toContain("at most 4096 tokens");
    expect(target.textContent).toContain("the server asked for 100000");
    expect(buttons.map((b) => b.textContent?.split(" ")[0] + " " + b.textContent?.split(" ")[1])).toEqual(["Send once", "Deny Alt+D"]);
    await vi.advanceTimersByTimeAsync(600);
    press("s", { altKey: true }); // "for this session" is not an answer here
    press("a", { altKey: true });
    expect(fake.respondApproval).not.toHaveBeenCalled();
    buttons[0].click();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "allow_once");
  });
});
