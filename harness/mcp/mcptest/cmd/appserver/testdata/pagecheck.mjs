// pagecheck runs one appserver page's script in node against the real
// ext-apps host bridge (AppBridge + PostMessageTransport of
// @modelcontextprotocol/ext-apps), for main_test.go:
//
//   node pagecheck.mjs counter|hostile PAGE.html EXTAPPS_DIST_SRC
//
// The page's script runs in its own vm context (its own globals: a fake
// window whose parent is the host's, a fake document holding the page's
// elements by id); the host's bridge runs in this context with
// globalThis.window as the host window. postMessage between the two is
// asynchronous and copies the data (JSON), as a browser's does. It prints
// one JSON object: what happened, for the test to check; it exits 1 when
// a step times out.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import vm from "node:vm";

const [mode, pagePath, distSrc] = process.argv.slice(2);
const { AppBridge, PostMessageTransport } = await import(pathToFileURL(join(distSrc, "app-bridge.js")).href);
// The same module app-bridge.js imports ("@modelcontextprotocol/client",
// its "import" export, beside ext-apps in node_modules).
const { ProtocolError } = await import(pathToFileURL(join(distSrc, "..", "..", "..", "client", "dist", "index.mjs")).href);

const page = readFileSync(pagePath, "utf8");
const open = page.indexOf(">", page.indexOf("<script")) + 1;
const script = page.slice(open, page.lastIndexOf("</script>"));

// Windows: postMessage on W delivers to W's "message" listeners.
const report = { messages: 0, methods: {}, attempts: [] };
function makeWindow(name) {
  const listeners = new Set();
  return {
    name,
    listeners,
    addEventListener(type, f) { if (type === "message") listeners.add(f); },
    removeEventListener(type, f) { if (type === "message") listeners.delete(f); },
    postMessage(data) {
      const text = JSON.stringify(data);
      const from = this === hostWin ? viewWin : hostWin;
      if (this === hostWin) {
        report.messages++;
        const m = data && data.method;
        if (m) report.methods[m] = (report.methods[m] || 0) + 1;
      }
      setTimeout(() => {
        const copy = this === viewWin ? viewJSON.parse(text) : JSON.parse(text);
        for (const f of [...listeners]) f({ data: copy, source: from, origin: "null" });
      }, 0);
    },
  };
}
const hostWin = makeWindow("host");
const viewWin = makeWindow("view");

// The view's document: the elements the page names by id, and what the
// hostile page creates.
const elements = {};
function element(id, tag) {
  const e = {
    id, tagName: tag, textContent: "", href: "", target: "", children: [], listeners: {},
    addEventListener(type, f) { (this.listeners[type] ||= []).push(f); },
    appendChild(c) { this.children.push(c); return c; },
    click() {
      report.attempts.push(`click ${this.tagName} target=${this.target} ${this.href}`);
      for (const f of this.listeners.click || []) f({ type: "click", target: this });
    },
    getBoundingClientRect() { return { x: 0, y: 0, width: 400, height: 180, top: 0, left: 0, right: 400, bottom: 180 }; },
    style: {},
  };
  if (id) elements[id] = e;
  return e;
}
for (const [, tag, id] of page.matchAll(/<(\w+)[^>]*\bid="([^"]+)"/g)) element(id, tag);
const documentElement = Object.assign(element("", "HTML"), { scrollWidth: 400, scrollHeight: 180, clientWidth: 400, clientHeight: 180 });
const document = {
  documentElement,
  body: Object.assign(element("", "BODY"), { scrollWidth: 400, scrollHeight: 180 }),
  getElementById: (id) => elements[id] || null,
  createElement: (tag) => element("", tag.toUpperCase()),
  addEventListener() {},
};
const top = {
  set location(v) { report.attempts.push(`top.location = ${v}`); },
  get location() { return { href: "about:srcdoc" }; },
};
Object.assign(viewWin, {
  parent: hostWin,
  top,
  document,
  open(url) { report.attempts.push(`window.open ${url}`); return null; },
  getComputedStyle: () => ({ getPropertyValue: () => "" }),
  innerWidth: 400,
  innerHeight: 180,
  location: { href: "about:srcdoc", origin: "null" },
  navigator: { userAgent: "pagecheck" },
});
class ResizeObserver { observe() {} unobserve() {} disconnect() {} }
const requestAnimationFrame = (f) => setTimeout(() => f(Date.now()), 0);
console.debug = () => {}; // the SDK logs every message at debug
const ctx = vm.createContext({
  window: viewWin, document, ResizeObserver, requestAnimationFrame, cancelAnimationFrame: clearTimeout, console, setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask,
  structuredClone, AbortController, AbortSignal, URL, TextEncoder, TextDecoder, Event, EventTarget, crypto, performance,
  navigator: viewWin.navigator, location: viewWin.location, getComputedStyle: viewWin.getComputedStyle,
});
viewWin.self = viewWin;
const viewJSON = vm.runInContext("JSON", ctx);

// The host: the real AppBridge on the host window.
globalThis.window = hostWin;
const calls = [];
let answer = null; // (params) => result, or throws
const bridge = new AppBridge(null, { name: "pagecheck", version: "1.0.0" }, { serverTools: {} }, { hostContext: { theme: "light" } });
const sizes = [];
bridge.onsizechange = (p) => sizes.push(p);
bridge.oncalltool = async (params) => { calls.push(params); return answer(params); };
bridge.onupdatemodelcontext = async () => { throw new ProtocolError(-32601, "ui/update-model-context is not supported here"); };
bridge.onloggingmessage = () => {};
let initialized = false;
bridge.oninitialized = () => {
  initialized = true;
  void bridge.sendToolInput({ arguments: {} });
  void bridge.sendToolResult({ content: [{ type: "text", text: "Count: 0" }], structuredContent: { count: 0 } });
};
await bridge.connect(new PostMessageTransport(viewWin, viewWin));

const until = async (what, ok, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) {
      console.log(JSON.stringify({ timeout: what, report, calls, sizes, text: texts() }));
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
};
const texts = () => Object.fromEntries(Object.entries(elements).map(([id, e]) => [id, e.textContent]));

vm.runInContext(script, ctx, { filename: pagePath });
const out = {};
if (mode === "counter") {
  const text = () => elements.out.textContent;
  await until("initialized", () => initialized);
  await until("Count: 0 from the tool result", () => text() === "Count: 0");
  out.shown = text();
  const clicks = [
    ["allowed", () => ({ content: [{ type: "text", text: "Count: 1" }], structuredContent: { count: 1 } })],
    ["denied as a rejection", () => { throw new ProtocolError(-32000, "the person denied the call", { code: "denied" }); }],
    ["denied as an error result", () => ({ isError: true, content: [{ type: "text", text: "The person denied apps.counter_bump." }] })],
    ["refused", () => { throw new ProtocolError(-32000, "apps.secret_peek is not selected", { code: "not_selected" }); }],
    ["failed", () => ({ isError: true, content: [{ type: "text", text: "the counter is locked" }] })],
  ];
  out.after = {};
  for (const [name, f] of clicks) {
    answer = f;
    const before = calls.length;
    elements.out.textContent = "";
    elements.bump.click();
    await until(name, () => calls.length === before + 1 && text() !== "");
    out.after[name] = text();
  }
  out.calls = calls;
  out.sizes = sizes;
} else {
  answer = () => { throw new ProtocolError(-32000, "secret_peek is not selected", { code: "not_selected" }); };
  await until("the flood", () => (report.methods["notifications/message"] || 0) >= 1000, 20000);
  await until("the log's last line", () => elements.log.children.some((c) => c.textContent === "flood sent"));
  out.log = elements.log.children.map((c) => c.textContent);
  out.calls = calls;
  out.sizes = sizes;
}
console.log(JSON.stringify({ ...out, report, initialized }));
process.exit(0);
