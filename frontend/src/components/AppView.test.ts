import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { ToolCardItem } from "../lib/chat";
import type { ToolView } from "../lib/types";
import { eventually } from "../testing/eventually";

// The Go side, as api.ts wraps it.
const fake = vi.hoisted(() => ({
  toolView: vi.fn(),
  viewCallTool: vi.fn(),
  viewRefused: vi.fn(async () => {}),
  viewShown: vi.fn(async () => {}),
  serveViewPage: vi.fn(async (_doc: string, _csp: string) => "/openworker-view/0a1b"),
  send: vi.fn(),
}));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: ToolCard } = await import("./ToolCard.svelte");
const { RefusalMarker, buildCSP } = await import("../lib/appview");

// PostMessageTransport logs each message it ignores (the preamble's reports are not JSON-RPC) at debug.
vi.spyOn(console, "debug").mockImplementation(() => {});

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  fake.toolView.mockReset();
  fake.viewRefused.mockClear();
  fake.viewShown.mockClear();
  fake.serveViewPage.mockClear();
});

function render(card: ToolCardItem, sessionId = "ses_1"): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(ToolCard, { target, props: { card, sessionId } }));
  flushSync();
  return target;
}
const settle = async (f: () => void) => { await eventually(f); flushSync(); };

const card: ToolCardItem = {
  kind: "tool", key: "inv_1", callId: "c1", tool: "apps.counter_show", args: { start: 1 }, status: "succeeded", progress: [],
  result: '{"count":1}', structured: { count: 1 }, ui: { uri: "ui://counter/view.html", digest: "sha256:ab", size: 120 },
};
const view: ToolView = {
  session_id: "ses_1", invocation_id: "inv_1", tool: "apps.counter_show", uri: "ui://counter/view.html", digest: "sha256:ab", size: 120,
  html: "<!DOCTYPE html><html><body><button>Bump</button></body></html>",
  csp: { connect: ["https://api.example.com"], resource: ["https://cdn.example.com"], frame: [], base_uri: [] },
  permissions: ["camera"], prefers_border: true,
};

describe("AppView under a tool card", () => {
  it("shows the view in a frame with scripts only, its CSP, declared origins and permissions not given — without opening the card", async () => {
    fake.toolView.mockResolvedValue(view);
    const el = render(card);
    await settle(() => expect(el.querySelector("iframe")?.getAttribute("src")).toBe("/openworker-view/0a1b"));
    expect(fake.toolView).toHaveBeenCalledWith("ses_1", "inv_1");
    const f = el.querySelector("iframe")!;
    expect(f.getAttribute("sandbox")).toBe("allow-scripts");
    expect(f.getAttribute("allow")).toBe("");
    expect(f.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(f.getAttribute("title")).toBe("App view of apps.counter_show");
    // The document the frame loads: the page behind the host's policy, served with that policy.
    const [doc, csp] = fake.serveViewPage.mock.calls[0];
    expect(csp).toBe(buildCSP(view.csp));
    expect(doc).toContain(`content="${buildCSP(view.csp)}"`);
    expect(doc).toContain("<button>Bump</button>");
    expect(f.hasAttribute("srcdoc")).toBe(false);
    // Outside the collapsed <details>: visible as is.
    expect(f.closest("details")).toBeNull();
    const facts = el.querySelector(".view-facts")!.textContent!;
    expect(facts).toContain("may connect to: https://api.example.com");
    expect(facts).toContain("loads from: https://cdn.example.com");
    expect(facts).toContain("asked for the camera: not given");
    expect(facts).not.toContain("may frame");
  });

  it("says a view without origins has no network", async () => {
    fake.toolView.mockResolvedValue({ ...view, csp: { connect: [], resource: [], frame: [], base_uri: [] }, permissions: [] });
    const el = render(card);
    await settle(() => expect(el.querySelector(".view-facts")?.textContent).toContain("No network: it declared no origins."));
  });

  it("shows why a view was not shown, and the card stays", async () => {
    const el = render({ ...card, ui: { uri: "ui://big/view.html", error: "the view is 3.1 MB, over the 2 MB bound" } });
    expect(el.querySelector(".appview[role=status]")?.textContent).toBe("The app view was not shown: the view is 3.1 MB, over the 2 MB bound");
    expect(el.querySelector("iframe")).toBeNull();
    expect(el.querySelector("details.toolcard")).not.toBeNull();
    expect(fake.toolView).not.toHaveBeenCalled();

    fake.toolView.mockRejectedValue(new Error("this invocation has no view"));
    const el2 = render(card);
    await settle(() => expect(el2.querySelector(".appview[role=status]")?.textContent).toBe("The app view was not shown: this invocation has no view"));
  });

  it("shows no view for a call that did not succeed, nor without a chat", () => {
    expect(render({ ...card, status: "failed" }).querySelector(".appview")).toBeNull();
    const target = document.createElement("div");
    mounted.push(mount(ToolCard, { target, props: { card } }));
    flushSync();
    expect(target.querySelector(".appview")).toBeNull();
  });

  it("shows each refusal the page reports, logs it, and closes the view on a flood", async () => {
    fake.toolView.mockResolvedValue(view);
    const el = render(card);
    await settle(() => expect(el.querySelector("iframe")?.getAttribute("src")).toBe("/openworker-view/0a1b"));
    const win = el.querySelector("iframe")!.contentWindow!;
    const report = (what: string) => window.dispatchEvent(new MessageEvent("message", { data: { marker: RefusalMarker, what }, source: win }));
    report("a pop-up (window.open https://evil.example.com)");
    // A report from another window is not the view's.
    window.dispatchEvent(new MessageEvent("message", { data: { marker: RefusalMarker, what: "forged" }, source: window }));
    flushSync();
    const list = el.querySelector(".refusals[role=status]")!;
    expect(list.textContent).toBe("Refused: a pop-up (window.open https://evil.example.com)");
    expect(fake.viewRefused).toHaveBeenCalledWith("ses_1", "inv_1", "a pop-up (window.open https://evil.example.com)");
    for (let i = 0; i < 30; i++) report(`a link to https://x.example.com/${i} (target _top)`);
    flushSync();
    await settle(() => expect(el.querySelector(".closed[role=status]")?.textContent).toContain("was closed: a flood of messages"));
    expect(el.querySelector("iframe")).toBeNull();
    expect(fake.viewRefused).toHaveBeenLastCalledWith("ses_1", "inv_1", expect.stringContaining("a flood of messages"));
    expect(el.querySelectorAll(".refusals li").length).toBeLessThanOrEqual(10);
  });

  it("labels a call asked by an app view on its summary row", () => {
    const el = render({ ...card, key: "inv_2", tool: "apps.counter_bump", ui: undefined, origin: "view:inv_1", originTool: "apps.counter_show" });
    expect(el.querySelector("summary .origin")?.textContent).toBe("from the app view of apps.counter_show");
  });
});
