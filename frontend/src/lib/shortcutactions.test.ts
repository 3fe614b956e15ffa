import { afterEach, describe, expect, it, vi } from "vitest";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({
  chatGrants: vi.fn(async () => []),
  openChat: vi.fn(async (coworker: string) => ({ session_id: "s-new", coworker, coworker_name: coworker, model: "m", approval_mode: "ask", tools: [] })),
}));
vi.mock("./api", () => ({ api: fake }));

const { app } = await import("./state.svelte");
const { runShortcut } = await import("./shortcutactions");
const { emptyChat } = await import("./chat");

const chat = (id: string, coworker: string) => ({
  info: { session_id: id, coworker, coworker_name: coworker, model: "m", approval_mode: "ask", tools: [] } as never,
  state: emptyChat(),
  error: "",
  grants: [],
});

afterEach(() => {
  app.chats = {};
  app.chatOrder = [];
  app.view = { name: "coworkers" };
  document.body.innerHTML = "";
  vi.clearAllMocks();
});

describe("runShortcut", () => {
  it("opens a new chat with the coworker of the chat shown, else the Coworkers screen", async () => {
    app.view = { name: "settings" };
    runShortcut("new-chat");
    expect(app.view).toEqual({ name: "coworkers" });
    expect(fake.openChat).not.toHaveBeenCalled();
    app.chats = { a: chat("a", "helper") };
    app.chatOrder = ["a"];
    app.view = { name: "chat", sessionId: "a" };
    runShortcut("new-chat");
    await eventually(() => expect(app.view).toEqual({ name: "chat", sessionId: "s-new" }));
    expect(fake.openChat).toHaveBeenCalledWith("helper");
    expect(app.chatOrder).toEqual(["a", "s-new"]);
  });

  it("steps through the open chats and opens Settings", () => {
    app.chats = { a: chat("a", "x"), b: chat("b", "y") };
    app.chatOrder = ["a", "b"];
    runShortcut("next-chat");
    expect(app.view).toEqual({ name: "chat", sessionId: "a" });
    runShortcut("next-chat");
    expect(app.view).toEqual({ name: "chat", sessionId: "b" });
    runShortcut("previous-chat");
    expect(app.view).toEqual({ name: "chat", sessionId: "a" });
    runShortcut("settings");
    expect(app.view).toEqual({ name: "settings" });
  });

  it("focuses the message box", () => {
    document.body.innerHTML = `<form class="composer"><textarea></textarea></form>`;
    runShortcut("focus-composer");
    expect(document.activeElement?.tagName).toBe("TEXTAREA");
  });
});
