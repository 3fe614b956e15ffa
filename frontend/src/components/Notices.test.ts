/// <reference types="vite/client" />
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import css from "../app.css?raw";
import App from "../App.svelte";
import Notices from "./Notices.svelte";
import { app } from "../lib/state.svelte";
import { INFO_TTL_MS, MAX_VISIBLE, realClock, type Clock } from "../lib/notices";

const mounted: ReturnType<typeof mount>[] = [];
const style = document.createElement("style");
style.textContent = css; // the shipped stylesheet, so computed styles are the real ones
document.head.append(style);

beforeEach(() => {
  app.notices = [];
});
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.notices = [];
  app.clock = realClock;
  vi.useRealTimers();
});

function render(component: typeof Notices | typeof App = Notices): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(component, { target }));
  flushSync();
  return target;
}

const toasts = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>(".toasts .toast")];

describe("notice overlay", () => {
  it("lies outside the page flow: fixed, not in main, and main is the same with or without toasts", () => {
    const el = render(App);
    const main = el.querySelector("main")!;
    const before = main.innerHTML;
    app.notify("warning", "No model server answers at http://127.0.0.1:9/v1 yet.", "app", "model");
    app.notify("error", "cannot open a chat");
    flushSync();
    const overlay = el.querySelector<HTMLElement>("section.toasts")!;
    expect(overlay).not.toBeNull();
    expect(main.contains(overlay)).toBe(false);
    expect(getComputedStyle(overlay).position).toBe("fixed");
    expect(toasts(el)).toHaveLength(2);
    expect(main.innerHTML).toBe(before); // nothing was inserted into the page
    app.notices = [];
    flushSync();
    expect(main.innerHTML).toBe(before);
  });

  it("gives each toast its level, role, icon and a labelled dismiss button", () => {
    const el = render();
    app.notify("error", "the journal cannot be written", "app");
    app.notify("warning", "servers.json: input not answered", "app");
    app.notify("info", "Settings saved.");
    flushSync();
    const [e, w, i] = toasts(el);
    expect([e.className, w.className, i.className]).toEqual(["toast error", "toast warning", "toast info"]);
    expect([e.getAttribute("role"), w.getAttribute("role"), i.getAttribute("role")]).toEqual(["alert", "status", "status"]);
    expect(e.querySelector(".icon")!.getAttribute("aria-hidden")).toBe("true");
    expect(e.textContent).toContain("Error: the journal cannot be written");
    const close = w.querySelector<HTMLButtonElement>("button.close")!;
    expect(close.getAttribute("aria-label")).toBe("Dismiss this notice: servers.json: input not answered");
    close.click();
    flushSync();
    expect(toasts(el).map((t) => t.className)).toEqual(["toast error", "toast info"]);
    const eClose = toasts(el)[0].querySelector<HTMLButtonElement>("button.close")!;
    eClose.focus();
    eClose.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    flushSync();
    expect(toasts(el).map((t) => t.className)).toEqual(["toast info"]);
  });

  it("lets info toasts fade after INFO_TTL_MS; warnings and errors stay", () => {
    vi.useFakeTimers();
    const el = render();
    app.notify("info", "Settings saved.");
    app.notify("warning", "kept warning", "app");
    app.notify("error", "kept error", "app");
    flushSync();
    vi.advanceTimersByTime(INFO_TTL_MS - 1);
    flushSync();
    expect(toasts(el)).toHaveLength(3);
    vi.advanceTimersByTime(1);
    flushSync();
    expect(toasts(el).map((t) => t.textContent)).toEqual([expect.stringContaining("kept warning"), expect.stringContaining("kept error")]);
    vi.advanceTimersByTime(3_600_000);
    flushSync();
    expect(toasts(el)).toHaveLength(2);
  });

  it("runs on an injected clock", () => {
    let now = 5_000;
    const due: { at: number; fn: () => void }[] = [];
    app.clock = { now: () => now, after: (ms, fn) => void due.push({ at: now + ms, fn }) } satisfies Clock;
    const el = render();
    app.notify("info", "Copied.");
    flushSync();
    expect(due).toHaveLength(1);
    now = due[0].at;
    due[0].fn();
    flushSync();
    expect(toasts(el)).toHaveLength(0);
  });

  it("removes a keyed toast when a notice with its key and no message comes (its cause is gone)", () => {
    const el = render();
    app.notify("warning", "No model server answers at http://127.0.0.1:9/v1 yet.", "app", "model");
    app.notify("warning", "3 tool calls were interrupted", "app");
    flushSync();
    expect(toasts(el)).toHaveLength(2);
    app.notify("info", "", "app", "model");
    flushSync();
    expect(toasts(el).map((t) => t.textContent)).toEqual([expect.stringContaining("3 tool calls were interrupted")]);
  });

  it(`shows at most ${MAX_VISIBLE} toasts, errors first, the rest behind "+K more"`, () => {
    const el = render();
    app.notify("error", "the error", "app");
    for (let i = 0; i < 4; i++) app.notify("warning", `w${i}`, "app");
    flushSync();
    expect(toasts(el).map((t) => t.querySelector(".toast-text")!.textContent)).toEqual(["Error: the error", "Warning: w2", "Warning: w3"]);
    const more = el.querySelector<HTMLButtonElement>(".toast-more")!;
    expect(more.textContent).toBe("+2 more");
    more.click();
    flushSync();
    expect(toasts(el)).toHaveLength(5);
    el.querySelector<HTMLButtonElement>(".toast-more")!.click(); // "Show fewer"
    flushSync();
    expect(toasts(el)).toHaveLength(MAX_VISIBLE);
    app.notify("error", "the error", "app"); // a repeat replaces, never stacks
    flushSync();
    expect(el.querySelector(".toast-more")!.textContent).toBe("+2 more");
  });
});
