import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";

const fake = vi.hoisted(() => ({ cancel: vi.fn(async () => undefined), send: vi.fn(async () => ({})) }));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Chat } = await import("./Chat.svelte");
const { app } = await import("../lib/state.svelte");
const { emptyChat } = await import("../lib/chat");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.chats = {};
  app.approvals = [];
  vi.clearAllMocks();
});

function render(running: boolean): HTMLElement {
  const state = emptyChat();
  app.chats = {
    s1: {
      info: { session_id: "s1", coworker: "helper", coworker_name: "Helper", model: "m", approval_mode: "ask", tools: [] } as never,
      state: { ...state, running, items: [{ kind: "user", key: "u1", text: "what is my battery?" }] },
      error: "",
    },
  };
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Chat, { target, props: { sessionId: "s1" } }));
  flushSync();
  return target;
}

const esc = () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", cancelable: true }));

describe("Chat keys", () => {
  it("Esc stops a running turn", () => {
    render(true);
    esc();
    expect(fake.cancel).toHaveBeenCalledWith("s1");
  });

  it("Esc leaves the turn alone while a consent dialog is open (Esc is the dialog's) or when nothing runs", () => {
    render(true);
    app.approvals = [{ id: "p1" } as never];
    esc();
    app.approvals = [];
    unmount(mounted.pop()!);
    render(false);
    esc();
    expect(fake.cancel).not.toHaveBeenCalled();
  });

  it("ArrowUp in an empty box brings back the last message to edit and resend", () => {
    const root = render(false);
    const box = root.querySelector("textarea")!;
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true, cancelable: true }));
    flushSync();
    expect(box.value).toBe("what is my battery?");
  });
});
