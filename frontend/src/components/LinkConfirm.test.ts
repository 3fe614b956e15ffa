import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({ openLink: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: Markdown } = await import("./Markdown.svelte");
const { default: LinkConfirm } = await import("./LinkConfirm.svelte");
const { app } = await import("../lib/state.svelte");
const { openConfirmed } = await import("../lib/links");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.link = null;
  app.notices = [];
  vi.clearAllMocks();
  document.body.innerHTML = "";
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function put(c: any, props: Record<string, unknown>): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(c as typeof LinkConfirm, { target, props: props as { url: string; onclose: () => void } }));
  flushSync();
  return target;
}
const button = (root: ParentNode, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;
const settle = async (f: () => void) => { await eventually(f); flushSync(); };

describe("external links", () => {
  it("a click on a link in a message asks first and opens nothing", () => {
    const el = put(Markdown, { text: "See [the docs](https://example.com/docs?a=1) or [mail](mailto:ann@example.com)." });
    el.querySelector<HTMLAnchorElement>("a[href^=https]")!.click();
    expect(app.link).toBe("https://example.com/docs?a=1");
    expect(fake.openLink).not.toHaveBeenCalled();
    el.querySelector<HTMLAnchorElement>("a[href^=mailto]")!.click();
    expect(app.link).toBe("mailto:ann@example.com");
  });

  it("shows the whole URL; Cancel and Esc close without opening", () => {
    let closed = 0;
    const el = put(LinkConfirm, { url: "https://example.com/a/very/long/path", onclose: () => closed++ });
    expect(el.querySelector("h2")!.textContent).toBe("Open this external link?");
    expect(el.querySelector(".link-url")!.textContent).toBe("https://example.com/a/very/long/path");
    expect(document.activeElement).toBe(el.querySelector("[role=dialog]")); // not a button: Enter opens nothing
    button(el, "Cancel").click();
    el.querySelector("[role=dialog]")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(closed).toBe(2);
    expect(fake.openLink).not.toHaveBeenCalled();
  });

  it("Open link opens it through the Go side", async () => {
    fake.openLink.mockResolvedValue(undefined);
    let closed = 0;
    const el = put(LinkConfirm, { url: "https://example.com/", onclose: () => closed++ });
    button(el, "Open link").click();
    await settle(() => expect(closed).toBe(1));
    expect(fake.openLink).toHaveBeenCalledWith("https://example.com/");
    expect(app.notices).toHaveLength(0);
  });

  it("with no browser it copies the link and says so", async () => {
    fake.openLink.mockRejectedValue(new Error("no browser or editor found: xdg-open is not installed (package xdg-utils)"));
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    let closed = 0;
    const el = put(LinkConfirm, { url: "https://example.com/", onclose: () => closed++ });
    button(el, "Open link").click();
    await settle(() => expect(app.notices).toHaveLength(1));
    expect(writeText).toHaveBeenCalledWith("https://example.com/");
    expect(app.notices[0].level).toBe("warning");
    expect(app.notices[0].message).toBe("Could not open https://example.com/: no browser or editor found: xdg-open is not installed (package xdg-utils). The link is copied: paste it into a browser.");
    // The dialog stays, with the URL and a Copy link button.
    expect(closed).toBe(0);
    expect(el.querySelector(".link-failed")!.textContent).toContain("Your browser did not open");
    expect(el.querySelector(".link-url")!.textContent).toBe("https://example.com/");
    button(el, "Copy link").click();
    await settle(() => expect(button(el, "Copied")).toBeTruthy());
    expect(writeText).toHaveBeenCalledTimes(2);
    button(el, "Done").click();
    expect(closed).toBe(1);
  });

  it("a sign-in whose browser does not open still waits, and shows the URL to copy", async () => {
    fake.openLink.mockRejectedValue(new Error("xdg-open exited with status 3"));
    Object.defineProperty(navigator, "clipboard", { value: { writeText: vi.fn(() => Promise.reject(new Error("denied"))) }, configurable: true });
    const answers: boolean[] = [];
    let closed = 0;
    const el = put(LinkConfirm, { url: "https://auth.example.com/authorize?x=1", action: "Sign in", decided: (ok: boolean) => answers.push(ok), onclose: () => closed++ });
    button(el, "Sign in").click();
    await settle(() => expect(el.querySelector(".link-failed")).toBeTruthy());
    expect(answers).toEqual([true]); // the harness goes on waiting for the sign-in
    expect(el.querySelector(".link-failed")!.textContent).toContain("OpenWorker waits for the sign-in");
    button(el, "Copy link").click();
    await settle(() => expect(button(el, "Copy failed: select the link above")).toBeTruthy());
    expect(closed).toBe(0);
    button(el, "Done").click();
    expect(closed).toBe(1);
    expect(answers).toEqual([true]);
  });

  it("says where to copy it from when the clipboard refuses too", async () => {
    const notes: string[] = [];
    const ok = await openConfirmed("https://example.com/x", {
      openLink: () => Promise.reject(new Error("xdg-open: no browser or program for it was found")),
      notify: (_l, m) => notes.push(m),
      clipboard: { writeText: () => Promise.reject(new Error("denied")) },
    });
    expect(ok).toBe(false);
    expect(notes).toEqual(["Could not open https://example.com/x: xdg-open: no browser or program for it was found. Copy it from here: https://example.com/x"]);
  });
});

describe("sign-in to a remote MCP server (docs/app.md#sign-in)", () => {
  it("asks with its own title; Cancel declines, Sign in opens the page then accepts", async () => {
    fake.openLink.mockResolvedValue(undefined);
    const answers: boolean[] = [];
    const url = "https://auth.example.com/authorize?client_id=c&state=s";
    const props = { url, onclose: () => {}, title: "Sign in to mcp.example.com for remote?", action: "Sign in", decided: (ok: boolean) => answers.push(ok) };
    let el = put(LinkConfirm, props);
    expect(el.querySelector("h2")!.textContent).toBe("Sign in to mcp.example.com for remote?");
    expect(el.querySelector(".link-url")!.textContent).toBe(url);
    button(el, "Cancel").click();
    expect(answers).toEqual([false]);
    expect(fake.openLink).not.toHaveBeenCalled();
    el = put(LinkConfirm, props);
    button(el, "Sign in").click();
    await settle(() => expect(answers).toEqual([false, true]));
    expect(fake.openLink).toHaveBeenCalledWith(url);
  });
});
