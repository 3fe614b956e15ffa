import { afterEach, describe, expect, it, vi } from "vitest";
import { app, sameView } from "./state.svelte";
import { INFO_TTL_MS } from "./notices";

afterEach(() => {
  app.notices = [];
  app.view = { name: "coworkers" };
  vi.useRealTimers();
});

describe("app notices", () => {
  it("drops a screen's errors when the screen changes, keeps app notices", () => {
    app.notify("warning", "1 tool call was interrupted when the app last stopped", "app");
    app.notify("error", 'cannot open a chat with "x"');
    app.view = { name: "coworkers" }; // same screen: nothing goes
    expect(app.notices).toHaveLength(2);
    app.view = { name: "activity" };
    expect(app.notices.map((n) => n.message)).toEqual(["1 tool call was interrupted when the app last stopped"]);
  });

  it("dismisses by id", () => {
    app.notify("error", "a", "app");
    app.notify("error", "b", "app");
    app.dismiss(app.notices[0].id);
    expect(app.notices.map((n) => n.message)).toEqual(["b"]);
  });

  it("lets info notices go by themselves", () => {
    vi.useFakeTimers();
    app.notify("info", "Settings saved.");
    app.notify("error", "kept", "app");
    vi.advanceTimersByTime(INFO_TTL_MS + 100);
    expect(app.notices.map((n) => n.message)).toEqual(["kept"]);
  });

  it("compares views by screen and chat", () => {
    expect(sameView({ name: "chat", sessionId: "a" }, { name: "chat", sessionId: "a" })).toBe(true);
    expect(sameView({ name: "chat", sessionId: "a" }, { name: "chat", sessionId: "b" })).toBe(false);
    expect(sameView({ name: "settings" }, { name: "activity" })).toBe(false);
  });
});

describe("chat list state", () => {
  const chat = (id: string, created: string, more: Record<string, unknown> = {}) => ({
    id, coworker: "device", coworker_version: "1", identity: "x", provider: "p", model: "m", approve: "ask", status: "open", error: "",
    created_at: created, updated_at: created, title: "", ...more,
  });
  afterEach(() => {
    app.chatList = [];
    app.searchResults = null;
    app.showHidden = false;
  });

  it("puts each chat:changed chat in its place: started, titled, hidden", () => {
    app.onChatChanged(chat("a", "2026-12-01T10:00:00Z"));
    app.onChatChanged(chat("b", "2026-12-01T11:00:00Z"));
    expect(app.chatList.map((c) => c.id)).toEqual(["b", "a"]);
    app.onChatChanged(chat("a", "2026-12-01T10:00:00Z", { title: "What computer am I on?" }));
    expect(app.chatList.map((c) => [c.id, c.title])).toEqual([["b", ""], ["a", "What computer am I on?"]]);
    app.searchResults = [chat("a", "2026-12-01T10:00:00Z")];
    app.onChatChanged(chat("a", "2026-12-01T10:00:00Z", { hidden: true }));
    expect(app.chatList.map((c) => c.id)).toEqual(["b"]);
    expect(app.searchResults).toEqual([]);
  });
});

describe("extension files opened", () => {
  it("queue for the install dialog and open one after the other, the same file twice too", () => {
    app.openExtension("/d/a.mcpb");
    app.openExtension("/d/b.mcpb");
    app.openExtension("/d/a.mcpb");
    const q = app.extensionQueue;
    expect(q.map((e) => e.path)).toEqual(["/d/a.mcpb", "/d/b.mcpb", "/d/a.mcpb"]);
    expect(new Set(q.map((e) => e.id)).size).toBe(3);
    app.closeExtension(q[0].id);
    expect(app.extensionQueue.map((e) => e.path)).toEqual(["/d/b.mcpb", "/d/a.mcpb"]);
    app.closeExtension(app.extensionQueue[0].id);
    app.closeExtension(app.extensionQueue[0].id);
    expect(app.extensionQueue).toEqual([]);
  });
});
