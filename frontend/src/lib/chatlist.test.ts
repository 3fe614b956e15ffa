import { describe, expect, it } from "vitest";
import { appendPage, chatStatus, chatTitle, coworkerName, lastActive, relativeTime, upsertChat } from "./chatlist";
import type { JournalSession } from "./types";

const chat = (id: string, created: string, more: Partial<JournalSession> = {}): JournalSession => ({
  id, coworker: "device", coworker_version: "1", identity: "x", provider: "p", model: "m", approve: "ask", status: "open", error: "",
  created_at: created, updated_at: created, title: "t " + id, ...more,
});
const ids = (l: JournalSession[]) => l.map((c) => c.id);

describe("chat list", () => {
  const list = [chat("c", "2026-12-01T10:00:03Z"), chat("b", "2026-12-01T10:00:02Z"), chat("a", "2026-12-01T10:00:01Z")];

  it("puts a new chat first and a changed one in its place", () => {
    expect(ids(upsertChat(list, chat("d", "2026-12-01T10:00:04Z"), false))).toEqual(["d", "c", "b", "a"]);
    const renamed = upsertChat(list, chat("b", "2026-12-01T10:00:02Z", { title: "Renamed" }), false);
    expect(ids(renamed)).toEqual(["c", "b", "a"]);
    expect(renamed[1].title).toBe("Renamed");
  });

  it("drops a hidden chat unless hidden ones are shown", () => {
    expect(ids(upsertChat(list, chat("b", "2026-12-01T10:00:02Z", { hidden: true }), false))).toEqual(["c", "a"]);
    expect(ids(upsertChat(list, chat("b", "2026-12-01T10:00:02Z", { hidden: true }), true))).toEqual(["c", "b", "a"]);
  });

  it("leaves a chat older than the loaded pages to its own page", () => {
    expect(ids(upsertChat(list, chat("z", "2026-11-01T00:00:00Z"), false, false))).toEqual(["c", "b", "a"]);
    expect(ids(upsertChat(list, chat("z", "2026-11-01T00:00:00Z"), false, true))).toEqual(["c", "b", "a", "z"]);
  });

  it("appends an older page without repeats", () => {
    expect(ids(appendPage(list, [chat("a", "2026-12-01T10:00:01Z"), chat("y", "2026-11-30T00:00:00Z")]))).toEqual(["c", "b", "a", "y"]);
  });

  it("titles a chat before its first prompt as New chat", () => {
    expect(chatTitle({ title: "" })).toBe("New chat");
    expect(chatTitle({ title: "What computer am I on?" })).toBe("What computer am I on?");
  });

  it("names the coworker when it is loaded", () => {
    expect(coworkerName("device", [{ id: "device", name: "Device Assistant" }])).toBe("Device Assistant");
    expect(coworkerName("gone", [{ id: "device", name: "Device Assistant" }])).toBe("gone");
    expect(coworkerName("gone", null)).toBe("gone");
  });

  it("says where a chat is", () => {
    expect(chatStatus({ status: "open" }, true, true)).toBe("running");
    expect(chatStatus({ status: "open" }, true, false)).toBe("open here");
    expect(chatStatus({ status: "open", interrupted: true }, false, false)).toBe("interrupted");
    expect(chatStatus({ status: "open" }, false, false)).toBe("open elsewhere");
    expect(chatStatus({ status: "closed" }, false, false)).toBe("closed");
    expect(chatStatus({ status: "failed" }, false, false)).toBe("failed");
  });

  it("writes times relative to now", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(relativeTime("2026-12-01T11:59:30Z", now)).toBe("now");
    expect(relativeTime("2026-12-01T11:55:00Z", now)).toBe("5 min");
    expect(relativeTime("2026-12-01T09:00:00Z", now)).toBe("3 h");
    expect(relativeTime("2026-11-30T11:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("2026-11-27T12:00:00Z", now)).toBe("4 d");
    expect(relativeTime("2026-10-01T12:00:00Z", now)).toBe("2026-10-01");
    expect(relativeTime("", now)).toBe("");
    expect(relativeTime("0001-01-01T00:00:00Z", now)).toBe("");
    expect(lastActive({ created_at: "a", last_activity: "b" })).toBe("b");
    expect(lastActive({ created_at: "a", last_activity: "0001-01-01T00:00:00Z" })).toBe("a");
  });
});
