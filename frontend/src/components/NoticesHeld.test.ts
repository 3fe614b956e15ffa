/// <reference types="vite/client" />
// Toasts and modal dialogs (docs/app.md#dialogs-and-toasts): while a dialog
// is open the toasts wait, none drawn over or under it; they come back,
// announced, when the last one closes, and an info toast gets its full
// time from then, so one raised by the dialog's own action is not lost.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import css from "../app.css?raw";
import App from "../App.svelte";
import Notices from "./Notices.svelte";
import LinkConfirm from "./LinkConfirm.svelte";
import { api } from "../lib/api";
import { app } from "../lib/state.svelte";
import { modals } from "../lib/modals.svelte";
import { INFO_TTL_MS, realClock } from "../lib/notices";

const style = document.createElement("style");
style.textContent = css;
document.head.append(style);

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.link = null;
  app.notices = [];
  app.clock = realClock;
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

function render<P extends Record<string, unknown>>(component: typeof App | typeof Notices | typeof LinkConfirm, props?: P): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(component as typeof App, { target, props: props as never }));
  flushSync();
  return target;
}
const toasts = () => [...document.querySelectorAll<HTMLElement>(".toasts .toast")];
const texts = () => toasts().map((t) => t.querySelector(".toast-text")!.textContent);
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
};

describe("toasts while a modal dialog is open", () => {
  it("are held (none drawn, still kept) and come back, with their roles, when it closes", () => {
    vi.useFakeTimers();
    const el = render(App);
    app.notify("warning", "servers.json: 1 server is not started", "app", "servers");
    app.notify("info", "Settings saved.");
    flushSync();
    expect(toasts()).toHaveLength(2);

    app.link = "https://example.com/guide"; // "Open this external link?"
    flushSync();
    expect(el.querySelector("[role=dialog][aria-modal=true]")).not.toBeNull();
    expect(modals.open).toBe(1);
    expect(toasts()).toHaveLength(0);
    const region = el.querySelector<HTMLElement>("section.toasts")!;
    expect(region.getAttribute("aria-label")).toBe("Notices"); // the region stays; only its toasts wait
    expect(region.dataset.held).toBe("2");
    app.notify("error", "cannot read the journal", "app");
    flushSync();
    expect(toasts()).toHaveLength(0);
    expect(region.dataset.held).toBe("3");
    // Held for longer than an info toast lives: it does not fade unseen.
    vi.advanceTimersByTime(INFO_TTL_MS * 3);
    flushSync();
    expect(app.notices).toHaveLength(3);

    app.link = null;
    flushSync();
    expect(modals.open).toBe(0);
    expect(region.dataset.held).toBeUndefined();
    expect(texts()).toEqual(["Warning: servers.json: 1 server is not started", "Info: Settings saved.", "Error: cannot read the journal"]);
    expect(toasts().map((t) => t.getAttribute("role"))).toEqual(["status", "status", "alert"]);
    // Now seen, the info toast has its full time, then goes.
    vi.advanceTimersByTime(INFO_TTL_MS - 1);
    flushSync();
    expect(toasts()).toHaveLength(3);
    vi.advanceTimersByTime(1);
    flushSync();
    expect(texts()).toEqual(["Warning: servers.json: 1 server is not started", "Error: cannot read the journal"]);
  });

  it("keeps the toast of the dialog's own action (a link the browser did not open) for after it", async () => {
    vi.spyOn(api, "openLink").mockRejectedValue(new Error("no browser"));
    render(Notices);
    let closed = 0;
    const dialog = render(LinkConfirm, { url: "https://example.com/", onclose: () => closed++ });
    [...dialog.querySelectorAll("button")].find((b) => b.textContent === "Open link")!.click();
    await settle();
    expect(dialog.querySelector(".link-failed")).not.toBeNull(); // the dialog stays, saying so
    expect(app.notices).toHaveLength(1);
    expect(toasts()).toHaveLength(0);
    [...dialog.querySelectorAll("button")].find((b) => b.textContent === "Done")!.click();
    expect(closed).toBe(1);
    unmount(mounted.pop()!); // App drops the dialog on onclose; here the test does
    flushSync();
    expect(toasts()).toHaveLength(1);
    expect(texts()[0]).toContain("example.com");
  });

  it("waits for the last of two dialogs", () => {
    render(Notices);
    app.notify("warning", "held until both close", "app");
    const first = render(LinkConfirm, { url: "https://example.com/a", onclose: () => {} });
    const second = render(LinkConfirm, { url: "https://example.com/b", onclose: () => {} });
    expect(first && second && modals.open).toBe(2);
    unmount(mounted.pop()!);
    flushSync();
    expect(toasts()).toHaveLength(0);
    unmount(mounted.pop()!);
    flushSync();
    expect(modals.open).toBe(0);
    expect(texts()).toEqual(["Warning: held until both close"]);
  });
});
