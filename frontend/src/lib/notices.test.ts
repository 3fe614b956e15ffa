import { describe, expect, it } from "vitest";
import { addNotice, clearViewNotices, dismissNotice, expireNotices, INFO_TTL_MS, MAX_NOTICES, MAX_VISIBLE, retimeNotices, visibleNotices, type ShownNotice } from "./notices";

const t0 = 1_000_000;

describe("notices", () => {
  it("dismisses one notice by id and keeps the others", () => {
    let l: ShownNotice[] = [];
    l = addNotice(l, { level: "error", message: "a" }, "app", t0);
    l = addNotice(l, { level: "warning", message: "b" }, "app", t0);
    const [a, b] = l;
    expect(a.id).not.toBe(b.id);
    expect(dismissNotice(l, a.id).map((m) => m.message)).toEqual(["b"]);
  });

  it("does not stack a repeated message", () => {
    let l: ShownNotice[] = [];
    l = addNotice(l, { level: "error", message: "cannot open a chat" }, "view", t0);
    l = addNotice(l, { level: "info", message: "saved" }, "view", t0);
    l = addNotice(l, { level: "error", message: "cannot open a chat" }, "view", t0 + 5);
    expect(l.map((m) => m.message)).toEqual(["saved", "cannot open a chat"]);
  });

  it("clears the notices of the view being left, not the app's", () => {
    let l: ShownNotice[] = [];
    l = addNotice(l, { level: "warning", message: "3 tool calls were interrupted" }, "app", t0);
    l = addNotice(l, { level: "error", message: 'cannot open a chat with "x"' }, "view", t0);
    expect(clearViewNotices(l).map((m) => m.message)).toEqual(["3 tool calls were interrupted"]);
  });

  it("expires info notices, keeps warnings and errors", () => {
    let l: ShownNotice[] = [];
    l = addNotice(l, { level: "info", message: "Settings saved." }, "view", t0);
    l = addNotice(l, { level: "warning", message: "w" }, "app", t0);
    l = addNotice(l, { level: "error", message: "e" }, "view", t0);
    expect(expireNotices(l, t0 + INFO_TTL_MS - 1)).toHaveLength(3);
    expect(expireNotices(l, t0 + INFO_TTL_MS).map((m) => m.message)).toEqual(["w", "e"]);
    expect(expireNotices(l, t0 + 3_600_000)).toHaveLength(2);
  });

  it("gives held info notices their full time from when they are shown; warnings and errors still stay", () => {
    let l: ShownNotice[] = [];
    l = addNotice(l, { level: "info", message: "Installed." }, "app", t0);
    l = addNotice(l, { level: "warning", message: "w" }, "app", t0);
    const shown = t0 + 60_000; // a dialog held them a minute
    l = retimeNotices(l, shown);
    expect(expireNotices(l, shown + INFO_TTL_MS - 1).map((m) => m.message)).toEqual(["Installed.", "w"]);
    expect(expireNotices(l, shown + INFO_TTL_MS).map((m) => m.message)).toEqual(["w"]);
    expect(l[1].expires).toBe(0);
  });

  it("shows at most MAX_NOTICES, dropping the oldest", () => {
    let l: ShownNotice[] = [];
    for (let i = 0; i < MAX_NOTICES + 2; i++) l = addNotice(l, { level: "error", message: `e${i}` }, "app", t0);
    expect(l.map((m) => m.message)).toEqual(Array.from({ length: MAX_NOTICES }, (_, i) => `e${i + 2}`));
  });

  it("replaces a keyed notice and removes it with a keyed notice without a message", () => {
    let l: ShownNotice[] = [];
    l = addNotice(l, { level: "warning", message: "3 tool calls were interrupted" }, "app", t0);
    l = addNotice(l, { level: "error", message: 'servers.json: input "memory-file" (Memory file name): it is not answered yet', key: "servers" }, "app", t0);
    l = addNotice(l, { level: "warning", message: "servers.json: input \"tok\" (Token): it is not answered yet", key: "servers" }, "app", t0);
    expect(l.map((m) => [m.level, m.message])).toEqual([
      ["warning", "3 tool calls were interrupted"], ["warning", 'servers.json: input "tok" (Token): it is not answered yet'],
    ]);
    l = addNotice(l, { level: "info", message: "", key: "servers" }, "app", t0);
    expect(l.map((m) => m.message)).toEqual(["3 tool calls were interrupted"]);
    expect(addNotice(l, { level: "info", message: "", key: "servers" }, "app", t0)).toEqual(l); // nothing to remove
  });

  it("shows MAX_VISIBLE toasts, errors and newer ones first, in their order, and counts the rest", () => {
    let l: ShownNotice[] = [];
    l = addNotice(l, { level: "error", message: "e-old" }, "app", t0);
    for (let i = 0; i < 3; i++) l = addNotice(l, { level: "info", message: `i${i}` }, "view", t0);
    l = addNotice(l, { level: "warning", message: "w" }, "app", t0);
    const v = visibleNotices(l, false);
    expect(v.shown.map((m) => m.message)).toEqual(["e-old", "i2", "w"]);
    expect(v.hidden).toBe(l.length - MAX_VISIBLE);
    expect(visibleNotices(l, true)).toEqual({ shown: l, hidden: 0 });
    expect(visibleNotices(l.slice(0, MAX_VISIBLE), false).hidden).toBe(0);
  });
});
