import { describe, expect, it } from "vitest";
import { App } from "@modelcontextprotocol/ext-apps";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import {
  FloodLimiter, MaxViewHeight, MinViewHeight, RefusalMarker, buildCSP, clampHeight, connectBridge, srcdoc, toMcpContent, validOrigin,
  type ViewApi, type ViewAsk,
} from "./appview";
import type { ViewToolResult } from "./types";

const none = { connect: [], resource: [], frame: [], base_uri: [] };

describe("buildCSP", () => {
  it("allows no network and nothing loaded from outside when nothing is declared", () => {
    expect(buildCSP(none)).toBe(
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; media-src 'none'; " +
      "connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'");
    expect(buildCSP(null)).toBe(buildCSP(none));
  });

  it("puts each declared origin in its directives", () => {
    const p = buildCSP({ connect: ["https://api.example.com", "wss://live.example.com:8443", "http://127.0.0.1:9000"], resource: ["https://*.cdn.example.com"], frame: ["https://maps.example.com"], base_uri: ["https://example.com"] });
    const d = Object.fromEntries(p.split("; ").map((x) => [x.split(" ")[0], x.split(" ").slice(1).join(" ")]));
    expect(d["connect-src"]).toBe("https://api.example.com wss://live.example.com:8443 http://127.0.0.1:9000");
    expect(d["script-src"]).toBe("'unsafe-inline' https://*.cdn.example.com");
    expect(d["style-src"]).toBe("'unsafe-inline' https://*.cdn.example.com");
    expect(d["img-src"]).toBe("data: https://*.cdn.example.com");
    expect(d["font-src"]).toBe("https://*.cdn.example.com");
    expect(d["media-src"]).toBe("https://*.cdn.example.com");
    expect(d["frame-src"]).toBe("https://maps.example.com");
    expect(d["base-uri"]).toBe("https://example.com");
    expect(d["form-action"]).toBe("'none'");
  });

  it("leaves out anything that is not an origin, so no policy is injected", () => {
    const bad = ["*", "*; script-src *", "https://a.example.com; connect-src *", "'unsafe-eval'", "data:", "http://example.com", "https://a.example.com/path", "https://a b", "javascript:alert(1)", "https://", "ftp://x.example.com"];
    for (const o of bad) expect(validOrigin(o), o).toBe(false);
    const p = buildCSP({ connect: bad, resource: bad, frame: bad, base_uri: bad });
    expect(p).toBe(buildCSP(none));
    for (const o of ["https://example.com", "https://*.example.com:443", "wss://x.example.com", "http://localhost:3000", "http://127.0.0.1"]) expect(validOrigin(o), o).toBe(true);
  });
});

/** Parses a srcdoc as the iframe does (jsdom's HTML parser, which follows the HTML spec's tree building). */
function parse(doc: string): Document {
  return new DOMParser().parseFromString(doc, "text/html");
}
const cspOf = (d: Document) => d.head.firstElementChild as HTMLMetaElement;

describe("srcdoc", () => {
  const pages: Record<string, string> = {
    "a full page": '<!DOCTYPE html><html lang="de"><head><title>Counter</title></head><body><p id="x">hi</p></body></html>',
    "no doctype": '<html><head><title>Counter</title></head><body><p id="x">hi</p></body></html>',
    "no html": '<!doctype html><head><title>Counter</title></head><body><p id="x">hi</p></body>',
    "no head": '<!DOCTYPE html><html><body><p id="x">hi</p></body></html>',
    "a fragment": '<title>Counter</title><p id="x">hi</p>',
    "uppercase tags": '<!DOCTYPE HTML><HTML LANG="de"><HEAD><TITLE>Counter</TITLE></HEAD><BODY><P ID="x">hi</P></BODY></HTML>',
    "a fake head in a comment first": '<!-- <head> --><html><head><title>Counter</title></head><body><p id="x">hi</p></body></html>',
    "a head attribute and a script": '<html><head data-x="1"><script>var s = "<head>";</script><title>Counter</title></head><body><p id="x">hi</p></body></html>',
  };
  for (const [name, page] of Object.entries(pages)) {
    it(`puts the CSP first in <head>, in standards mode, for ${name}`, () => {
      const d = parse(srcdoc(page, { ...none, connect: ["https://api.example.com"] }));
      expect(d.compatMode).toBe("CSS1Compat");
      const meta = cspOf(d);
      expect(meta.tagName).toBe("META");
      expect(meta.httpEquiv).toBe("Content-Security-Policy");
      expect(meta.content).toBe(buildCSP({ ...none, connect: ["https://api.example.com"] }));
      // The preamble comes next, before anything of the page's.
      expect(meta.nextElementSibling?.tagName).toBe("SCRIPT");
      expect(meta.nextElementSibling?.textContent).toContain(RefusalMarker);
      // The page is all there.
      expect(d.getElementById("x")?.textContent).toBe("hi");
      if (page.includes("itle>")) expect(d.title).toBe("Counter");
      expect(d.querySelectorAll("head").length).toBe(1);
    });
  }

  it("keeps the page's html attributes", () => {
    expect(parse(srcdoc(pages["a full page"], none)).documentElement.lang).toBe("de");
  });

  it("keeps a page's own CSP meta and <base> after ours, where base-uri 'none' governs them", () => {
    const d = parse(srcdoc('<!DOCTYPE html><html><head><base href="https://evil.example.com/"><meta http-equiv="Content-Security-Policy" content="default-src *"></head><body>x</body></html>', none));
    const metas = [...d.head.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')] as HTMLMetaElement[];
    expect(metas.map((m) => m.content)).toEqual([buildCSP(none), "default-src *"]);
    expect(cspOf(d)).toBe(metas[0]);
    const kids = [...d.head.children];
    expect(kids.indexOf(d.querySelector("base")!)).toBeGreaterThan(kids.indexOf(metas[0]));
    expect(buildCSP(none)).toContain("base-uri 'none'");
  });

  it("escapes the policy into the attribute", () => {
    // Only valid origins get in, but the attribute is escaped anyway.
    expect(srcdoc("", none)).toContain(`content="${buildCSP(none).replaceAll("'", "'")}"`);
    expect(srcdoc("", none)).not.toMatch(/content="[^"]*"[^>]*content=/);
  });
});

describe("clampHeight", () => {
  it("bounds the height a view asks for", () => {
    expect(clampHeight(10)).toBe(MinViewHeight);
    expect(clampHeight(300.2)).toBe(301);
    expect(clampHeight(5000)).toBe(MaxViewHeight);
    expect(clampHeight(Number.NaN)).toBe(MinViewHeight);
    expect(clampHeight("600")).toBe(MinViewHeight);
  });
});

describe("FloodLimiter", () => {
  it("allows 20 messages a second and closes on the 21st within one second", () => {
    let now = 0;
    const f = new FloodLimiter(() => now);
    for (let i = 0; i < 20; i++) expect(f.hit()).toBe(false);
    now = 999;
    expect(f.hit()).toBe(true);
    expect(f.why()).toBe("more than 20 messages in one second");
    now = 10_000;
    expect(f.hit()).toBe(true); // stays closed
  });

  it("lets a steady view go on, up to 500 in all", () => {
    let now = 0;
    const f = new FloodLimiter(() => now);
    for (let i = 0; i < 500; i++) {
      now += 60; // about 16 a second
      expect(f.hit(), `message ${i}`).toBe(false);
    }
    now += 60;
    expect(f.hit()).toBe(true);
    expect(f.why()).toBe("more than 500 messages");
  });
});

describe("toMcpContent", () => {
  it("turns the card's blocks into MCP content, and falls back to the text", () => {
    expect(toMcpContent([{ type: "text", text: "a" }, { type: "resource_link", uri: "file:///r", name: "r", mime_type: "text/plain" }, { type: "image", mime_type: "image/png", bytes: 3 }],
      undefined, [{ mime_type: "image/png", url: "data:image/png;base64,AAA=" }])).toEqual([
      { type: "text", text: "a" }, { type: "resource_link", uri: "file:///r", name: "r", mimeType: "text/plain" }, { type: "image", mimeType: "image/png", data: "AAA=" },
    ]);
    expect(toMcpContent(null, '{"count":1}')).toEqual([{ type: "text", text: '{"count":1}' }]);
  });
});

// The bridge glue, with the real ext-apps AppBridge against a real ext-apps App
// (the view's side) over the MCP SDK's linked in-memory transports.
interface Recorded { calls: [string, string, string, unknown][]; refused: string[]; sent: string[]; asked: string[] }

function fakeHarness(answer: (name: string, args: unknown) => ViewToolResult): { api: ViewApi; rec: Recorded } {
  const rec: Recorded = { calls: [], refused: [], sent: [], asked: [] };
  return {
    rec,
    api: {
      viewCallTool: async (s, inv, name, args) => {
        rec.calls.push([s, inv, name, args]);
        return answer(name, args);
      },
      viewRefused: async (_s, _i, what) => void rec.refused.push(what),
      send: async (_s, text) => void rec.sent.push(text),
    },
  };
}

const view = { session_id: "ses_1", invocation_id: "inv_1", tool: "apps.counter_show" };

async function pair(api: ViewApi, ask: ViewAsk, o: Parameters<typeof connectBridge>[4] = {}) {
  const [hostSide, viewSide] = InMemoryTransport.createLinkedPair();
  const conn = await connectBridge(hostSide, view, api, ask, o);
  const app = new App({ name: "counter", version: "1.0.0" }, {}, { autoResize: false });
  await app.connect(viewSide);
  return { conn, app };
}

const yes: ViewAsk = { message: async () => true, openLink: async () => true };

describe("connectBridge (real AppBridge and App)", () => {
  it("initializes the view with the host's context, then sends the call's input and result", async () => {
    const { api } = fakeHarness(() => ({ status: "succeeded", code: "", error: "", invocation_id: "", content: [] }));
    const got: { input?: unknown; result?: unknown } = {};
    const [hostSide, viewSide] = InMemoryTransport.createLinkedPair();
    await connectBridge(hostSide, view, api, yes, { input: { start: 3 }, result: { content: [{ type: "text", text: '{"count":3}' }], structuredContent: { count: 3 } }, theme: "dark" });
    const app = new App({ name: "counter", version: "1.0.0" }, {}, { autoResize: false });
    const input = new Promise((r) => (app.ontoolinput = (p) => r(p)));
    const result = new Promise((r) => (app.ontoolresult = (p) => r(p)));
    await app.connect(viewSide);
    got.input = await input;
    got.result = await result;
    expect(app.getHostContext()).toMatchObject({ theme: "dark", displayMode: "inline" });
    expect(app.getHostVersion()).toMatchObject({ name: "OpenWorker" });
    expect(got.input).toEqual({ arguments: { start: 3 } });
    expect(got.result).toMatchObject({ structuredContent: { count: 3 }, content: [{ type: "text", text: '{"count":3}' }] });
  });

  it("sends the input and result as plain data when they are proxies (the chat's state), as postMessage needs", async () => {
    const { api } = fakeHarness(() => ({ status: "succeeded", code: "", error: "", invocation_id: "", content: [] }));
    const [hostSide, viewSide] = InMemoryTransport.createLinkedPair();
    // The host's messages are cloned on the way, as window.postMessage does.
    const send = hostSide.send.bind(hostSide);
    hostSide.send = (m, opts) => send(structuredClone(m), opts);
    const proxied = <T extends object>(v: T) => new Proxy(v, {});
    await connectBridge(hostSide, view, api, yes, { input: proxied({ start: 3 }), result: { content: [{ type: "text", text: "Count: 3" }], structuredContent: proxied({ count: 3 }) } });
    const app = new App({ name: "counter", version: "1.0.0" }, {}, { autoResize: false });
    const input = new Promise((r) => (app.ontoolinput = (p) => r(p)));
    const result = new Promise((r) => (app.ontoolresult = (p) => r(p)));
    await app.connect(viewSide);
    expect(await input).toEqual({ arguments: { start: 3 } });
    expect(await result).toMatchObject({ structuredContent: { count: 3 } });
  });

  it("sends the view's tool call to the harness and its result back", async () => {
    const { api, rec } = fakeHarness(() => ({ status: "succeeded", code: "", error: "", invocation_id: "inv_2", content: [{ type: "text", text: '{"count":4}' }], structured: { count: 4 } }));
    const { app } = await pair(api, yes);
    const r = await app.callServerTool({ name: "counter_bump", arguments: { by: 1 } });
    expect(rec.calls).toEqual([["ses_1", "inv_1", "counter_bump", { by: 1 }]]);
    expect(r).toMatchObject({ content: [{ type: "text", text: '{"count":4}' }], structuredContent: { count: 4 } });
    expect(r.isError).toBeUndefined();
  });

  it("answers a denied call with an error the view can show", async () => {
    const { api, rec } = fakeHarness(() => ({ status: "refused", code: "denied", error: "you denied this call of apps.counter_bump", invocation_id: "inv_3", content: null }));
    const { app } = await pair(api, yes);
    await expect(app.callServerTool({ name: "counter_bump", arguments: {} })).rejects.toThrow("you denied this call of apps.counter_bump");
    expect(rec.calls).toHaveLength(1);
  });

  it("answers a failed call as an error result", async () => {
    const { api } = fakeHarness(() => ({ status: "failed", code: "tool_error", error: "the counter is locked", invocation_id: "inv_4", content: null }));
    const { app } = await pair(api, yes);
    const r = await app.callServerTool({ name: "counter_bump", arguments: {} });
    expect(r).toMatchObject({ isError: true, content: [{ type: "text", text: "the counter is locked" }] });
  });

  it("passes a binding's rejection back to the view", async () => {
    const { api } = fakeHarness(() => { throw new Error("no such invocation in this chat: inv_1"); });
    const { app } = await pair(api, yes);
    await expect(app.callServerTool({ name: "x", arguments: {} })).rejects.toThrow("no such invocation in this chat: inv_1");
  });

  it("asks the person before a chat message; a declined one sends nothing", async () => {
    const { api, rec } = fakeHarness(() => { throw new Error("unused"); });
    let answer = false;
    const ask: ViewAsk = { message: async (text, tool) => { rec.asked.push(`${tool}: ${text}`); return answer; }, openLink: async () => false };
    const { app } = await pair(api, ask);
    const declined = await app.sendMessage({ role: "user", content: [{ type: "text", text: "Bump it twice" }] });
    expect(declined.isError).toBe(true);
    expect(rec.asked).toEqual(["apps.counter_show: Bump it twice"]);
    expect(rec.sent).toEqual([]);
    answer = true;
    const sent = await app.sendMessage({ role: "user", content: [{ type: "text", text: "Bump it twice" }] });
    expect(sent.isError).toBeFalsy();
    expect(rec.sent).toEqual(["Bump it twice"]);
  });

  it("asks before opening a link, and refuses other schemes without asking", async () => {
    const { api, rec } = fakeHarness(() => { throw new Error("unused"); });
    const links: string[] = [];
    const ask: ViewAsk = { message: async () => false, openLink: async (url) => { links.push(url); return url.includes("ok"); } };
    const { app } = await pair(api, ask);
    expect((await app.openLink({ url: "https://example.com/ok" })).isError).toBeFalsy();
    expect((await app.openLink({ url: "https://example.com/no" })).isError).toBe(true);
    expect((await app.openLink({ url: "javascript:alert(1)" })).isError).toBe(true);
    expect(links).toEqual(["https://example.com/ok", "https://example.com/no"]);
    expect(rec.refused).toEqual(["a link that is not http(s) or mailto: javascript:alert(1)"]);
  });

  it("refuses update-model-context and resource reads, and says so", async () => {
    const { api, rec } = fakeHarness(() => { throw new Error("unused"); });
    const shown: string[] = [];
    const { app } = await pair(api, yes, { onrefused: (w) => shown.push(w) });
    await expect(app.updateModelContext({ content: [{ type: "text", text: "the user is sad" }] })).rejects.toThrow(/not supported in OpenWorker/);
    await expect(app.readServerResource({ uri: "ui://counter/secret" })).rejects.toThrow(/not supported/);
    expect(rec.refused).toEqual(["ui/update-model-context: not supported", "resources/read: not supported"]);
    expect(shown).toEqual(rec.refused);
  });

  it("keeps the view inline and its height within bounds", async () => {
    const { api } = fakeHarness(() => { throw new Error("unused"); });
    const heights: number[] = [];
    let got: (() => void) | undefined;
    const { app } = await pair(api, yes, { onsize: (h) => { heights.push(h); if (heights.length === 2) got?.(); } });
    expect(await app.requestDisplayMode({ mode: "fullscreen" })).toMatchObject({ mode: "inline" });
    const done = new Promise<void>((r) => (got = r));
    await app.sendSizeChanged({ height: 5000 });
    await app.sendSizeChanged({ height: 10 });
    await done;
    expect(heights).toEqual([MaxViewHeight, MinViewHeight]);
  });

  it("closes the bridge on a flood, and the view's calls stop reaching the harness", async () => {
    const now = 0; // the whole flood arrives within one millisecond of the injected clock
    const { api, rec } = fakeHarness(() => ({ status: "succeeded", code: "", error: "", invocation_id: "i", content: [] }));
    const closed: string[] = [];
    let onClosed: (() => void) | undefined;
    const whenClosed = new Promise<void>((r) => (onClosed = r));
    const { app, conn } = await pair(api, yes, { clock: () => now, onrefused: (w, c) => { if (c) { closed.push(w); onClosed?.(); } } });
    // ui/initialize and the initialized notification counted 2 already.
    const calls = Array.from({ length: 40 }, (_, i) => app.callServerTool({ name: "counter_bump", arguments: { i } }).then(() => "ok", () => "failed"));
    await whenClosed;
    expect(closed).toEqual(["a flood of messages (more than 20 messages in one second): the view was closed"]);
    expect(rec.refused).toEqual(closed);
    expect(rec.calls.length).toBe(18);
    expect(conn.count()).toBe(false);
    const outcomes = await Promise.all(calls);
    // Closing drops the connection: the view's pending requests fail, none is answered later.
    expect(outcomes.filter((o) => o === "failed")).toHaveLength(40);
    await expect(app.callServerTool({ name: "counter_bump", arguments: {} })).rejects.toThrow();
    expect(rec.calls.length).toBe(18);
  });
});
