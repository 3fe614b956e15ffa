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
