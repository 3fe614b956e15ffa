// MCP Apps in the chat (docs/mcp-apps.md): the pure parts of showing a
// tool's app view — the Content-Security-Policy built from the origins the
// view declared, the srcdoc that puts it first in the page's <head>, the
// preamble that reports pop-ups and navigations, the flood limiter — and
// the host bridge (ext-apps AppBridge) whose handlers send everything the
// view asks through the harness or the person.
//
// The security is the iframe's sandbox (scripts only, an opaque origin, no
// pop-ups, no top navigation, no forms) and the CSP (no network unless
// declared); the preamble's reports are for the card, not a defence.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiHostContext, McpUiHostCapabilities } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult, ContentBlock, JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { ProtocolError } from "@modelcontextprotocol/client";
import { isExternal } from "./links";
import type { ResultBlock, ToolView, ViewCSP, ViewToolResult } from "./types";

/** The height a view may take, in CSS pixels: its size notifications are clamped to it. */
export const MinViewHeight = 48;
export const MaxViewHeight = 800;
/** A view that sends more than this many messages in one second, or this many in all, is closed. */
export const FloodPerSecond = 20;
export const FloodTotal = 500;

/** The sandbox of every view's iframe: scripts, nothing else (docs/mcp-apps.md#sandbox). */
export const ViewSandbox = "allow-scripts";

/**
 * An origin a view may declare (the harness checks the same, harness/mcp):
 * https://host[:port] or wss://host[:port] (host may start with "*."), or
 * http://localhost[:port] / http://127.0.0.1[:port]. No paths, quotes,
 * spaces, ";", "*" alone, schemes like data: or keywords like 'unsafe-eval'.
 */
const originRe = /^(?:(?:https|wss):\/\/(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|http:\/\/(?:localhost|127\.0\.0\.1))(?::\d{1,5})?$/i;

/** validOrigin reports whether o may go into the view's CSP. */
export function validOrigin(o: string): boolean {
  return originRe.test(o);
}

function origins(list: string[] | null | undefined): string[] {
  return (list ?? []).filter(validOrigin);
}

/**
 * buildCSP gives the policy of a view from its declared origins: nothing
 * is allowed by default; inline scripts and styles, data: images and the
 * resource origins load; connect-src, frame-src and base-uri are the
 * declared origins or 'none'; forms post nowhere. An origin that is not
 * valid (validOrigin) is left out, so a policy cannot be injected.
 */
export function buildCSP(csp: Partial<ViewCSP> | null | undefined): string {
  const res = origins(csp?.resource);
  const list = (xs: string[]) => (xs.length ? xs.join(" ") : "'none'");
  const with_ = (first: string, xs: string[]) => [first, ...xs].join(" ");
  return [
    "default-src 'none'",
    `script-src ${with_("'unsafe-inline'", res)}`,
    `style-src ${with_("'unsafe-inline'", res)}`,
    `img-src ${with_("data:", res)}`,
    `font-src ${list(res)}`,
    `media-src ${list(res)}`,
    `connect-src ${list(origins(csp?.connect))}`,
    `frame-src ${list(origins(csp?.frame))}`,
    `base-uri ${list(origins(csp?.base_uri))}`,
    "form-action 'none'",
  ].join("; ");
}

/** The marker of the preamble's reports (a message that is not JSON-RPC). */
export const RefusalMarker = "openworker.view.refused";

/**
 * The preamble runs before the page's own scripts and reports, by a
 * postMessage to the host, what the sandbox refuses: window.open, a click
 * on a link that leaves the frame (target _blank, _top, _parent or a
 * named one), a form, a CSP violation. It only tells; the sandbox and the
 * CSP refuse whether or not it runs.
 */
const preamble = `(function(){
var M=${JSON.stringify(RefusalMarker)};
function r(w){try{parent.postMessage({marker:M,what:String(w).slice(0,300)},"*")}catch(e){}}
try{window.open=function(u){r("a pop-up (window.open "+(u||"")+")");return null}}catch(e){}
document.addEventListener("click",function(e){var a=e.target&&e.target.closest&&e.target.closest("a[href]");if(!a)return;var t=(a.getAttribute("target")||"").toLowerCase();if(t&&t!=="_self"){e.preventDefault();r("a link to "+a.href+" (target "+t+")")}},true);
document.addEventListener("submit",function(e){e.preventDefault();r("a form")},true);
document.addEventListener("securitypolicyviolation",function(e){r("blocked by the CSP: "+e.effectiveDirective+" "+(e.blockedURI||""))});
window.addEventListener("error",function(e){var m=String(e&&e.message||"");if(/navigat|top|SecurityError/i.test(m))r("a navigation ("+m+")")});
})();`;

function escapeAttr(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * srcdoc gives the iframe's document: a doctype (standards mode), then a
 * <head> whose first element is the CSP meta and the preamble, then the
 * page as it came. The page is never searched for its own <html> or
 * <head> (a comment or a script could hide a fake one): the HTML parser
 * merges the page's <html> attributes, ignores its second <head> and puts
 * its <meta>, <base>, <title>, <style>, <script> in the head after ours, so
 * our policy applies to all of it. A CSP meta of the page's own can only
 * restrict further; a <base> falls under base-uri.
 */
export function srcdoc(html: string, csp: Partial<ViewCSP> | null | undefined): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(buildCSP(csp))}">`;
  return `<!DOCTYPE html><html><head>${meta}<script>${preamble}</script></head>${html}`;
}

/** clampHeight bounds a view's asked height to [MinViewHeight, MaxViewHeight]; anything else is the minimum. */
export function clampHeight(h: unknown): number {
  const n = typeof h === "number" && Number.isFinite(h) ? Math.ceil(h) : MinViewHeight;
  return Math.min(MaxViewHeight, Math.max(MinViewHeight, n));
}

/**
 * A FloodLimiter counts a view's messages: hit() is true once more than
 * perSecond arrived within one second (by clock, ms) or more than total
 * in all; from then on it stays true.
 */
export class FloodLimiter {
  #times: number[] = [];
  #total = 0;
  #over = "";
  constructor(private clock: () => number = Date.now, private perSecond = FloodPerSecond, private total = FloodTotal) {}

  /** hit counts one message; true when the view is over a bound (why() says which). */
  hit(): boolean {
    if (this.#over) return true;
    const now = this.clock();
    this.#total++;
    this.#times.push(now);
    while (this.#times.length && now - this.#times[0] >= 1000) this.#times.shift();
    if (this.#times.length > this.perSecond) this.#over = `more than ${this.perSecond} messages in one second`;
    else if (this.#total > this.total) this.#over = `more than ${this.total} messages`;
    return !!this.#over;
  }

  /** why says which bound was passed ("" while none). */
  why(): string {
    return this.#over;
  }
}

/** The card's view of a result, as MCP content blocks for the view (ui/notifications/tool-result). */
export function toMcpContent(blocks: ResultBlock[] | null | undefined, text?: string, images?: { mime_type: string; url?: string }[]): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const b of blocks ?? []) {
    if (b.type === "text") out.push({ type: "text", text: b.text ?? "" });
    else if (b.type === "resource_link" && b.uri) out.push({ type: "resource_link", uri: b.uri, name: b.name || b.uri, ...(b.mime_type ? { mimeType: b.mime_type } : {}) });
    else if (b.type === "resource" && b.uri && b.text !== undefined) out.push({ type: "resource", resource: { uri: b.uri, text: b.text, ...(b.mime_type ? { mimeType: b.mime_type } : {}) } });
  }
  for (const im of images ?? []) {
    const m = im.url?.match(/^data:([^;,]+);base64,(.*)$/);
    if (m) out.push({ type: "image", mimeType: m[1], data: m[2] });
  }
  if (!out.length && text) out.push({ type: "text", text });
  return out;
}

/** plain copies JSON data (a tool's arguments or result) into plain objects, which postMessage can clone. */
function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** The JSON-RPC error code of a call the harness refused (consent, selection, budget). */
export const RefusedCode = -32000;

/** toCallToolResult turns what the harness made of a view's call into the view's answer; a refusal is an error. */
export function toCallToolResult(r: ViewToolResult): CallToolResult {
  if (r.status === "refused") {
    throw new ProtocolError(RefusedCode, r.error || `refused (${r.code || "no reason given"})`, { code: r.code, invocation: r.invocation_id });
  }
  const content = toMcpContent(r.content);
  const out: CallToolResult = { content };
  if (r.structured !== undefined && r.structured !== null && typeof r.structured === "object") out.structuredContent = r.structured as Record<string, unknown>;
  if (r.status !== "succeeded") {
    out.isError = true;
    if (!content.length) out.content = [{ type: "text", text: r.error || `the call ended ${r.status}` }];
  }
  return out;
}

/** What the host's bridge needs of the app (lib/api.ts). */
export interface ViewApi {
  viewCallTool(sessionId: string, invocationId: string, name: string, args: unknown): Promise<ViewToolResult>;
  viewRefused(sessionId: string, invocationId: string, what: string): Promise<void>;
  /** Sends a chat message the person confirmed (the Send binding). */
  send(sessionId: string, text: string): Promise<unknown>;
}

/** What the bridge asks the person; each resolves true when the person agreed (and, for a link, it opened). */
export interface ViewAsk {
  message(text: string, tool: string): Promise<boolean>;
  openLink(url: string, tool: string): Promise<boolean>;
}

/** What the bridge tells the card. */
export interface ViewOptions {
  /** The call's arguments and result, sent to the view once it is initialized. */
  input?: unknown;
  result?: CallToolResult;
  theme?: "light" | "dark";
  /** The time source of the flood limiter (ms). */
  clock?: () => number;
  /** The view asked for this height (already clamped). */
  onsize?: (height: number) => void;
  /** Something was refused; closed is true when the view was closed for it (a flood). */
  onrefused?: (what: string, closed: boolean) => void;
}

export interface ViewConnection {
  bridge: AppBridge;
  limiter: FloodLimiter;
  /** count counts one message of the view; false (and the view closed) on a flood. */
  count(): boolean;
  /** close tears the bridge down (the frame is the caller's). */
  close(): Promise<void>;
}

/** The host's name and capabilities, as the view sees them. */
export const hostInfo = { name: "OpenWorker", version: "1" };
export const hostCapabilities: McpUiHostCapabilities = {
  openLinks: {},
  serverTools: {},
  logging: {},
  message: { text: {} },
};

function unsupported(what: string, report: (what: string) => void): () => never {
  return () => {
    report(`${what}: not supported`);
    throw new ProtocolError(-32601, `${what} is not supported in OpenWorker: nothing from an app view reaches the model or other resources (docs/mcp-apps.md#supported)`);
  };
}

/** A Transport that counts each message the view sends and closes the bridge on a flood. */
class CountingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: unknown) => void;
  constructor(private inner: Transport, private count: () => boolean) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (m, extra) => {
      if (!this.count()) return;
      (this.onmessage as ((m: JSONRPCMessage, e?: unknown) => void) | undefined)?.(m, extra);
    };
  }
  start() { return this.inner.start(); }
  send(m: JSONRPCMessage, o?: Parameters<Transport["send"]>[1]) { return this.inner.send(m, o); }
  close() { return this.inner.close(); }
}

/**
 * connectBridge makes the host side of one view over transport: an
 * AppBridge (no MCP client: every request is handled here) whose tool
 * calls go to api.viewCallTool (the harness: selection, consent, limits,
 * journal), whose messages and links ask the person first, and which
 * refuses what OpenWorker does not support (model context, resources,
 * prompts, downloads, sampling). More than FloodPerSecond messages in a
 * second or FloodTotal in all close it.
 */
export async function connectBridge(transport: Transport, view: Pick<ToolView, "session_id" | "invocation_id" | "tool">, api: ViewApi, ask: ViewAsk, o: ViewOptions = {}): Promise<ViewConnection> {
  const limiter = new FloodLimiter(o.clock ?? Date.now);
  let closed = false;
  const report = (what: string, closing = false) => {
    o.onrefused?.(what, closing);
    void api.viewRefused(view.session_id, view.invocation_id, what).catch(() => {});
  };
  const hostContext: McpUiHostContext = {
    theme: o.theme ?? "light", displayMode: "inline", availableDisplayModes: ["inline"], platform: "desktop",
    containerDimensions: { maxHeight: MaxViewHeight },
  };
  const bridge = new AppBridge(null, hostInfo, hostCapabilities, { hostContext });
  const conn: ViewConnection = {
    bridge, limiter,
    count: () => {
      if (closed) return false;
      if (!limiter.hit()) return true;
      report(`a flood of messages (${limiter.why()}): the view was closed`, true);
      void conn.close();
      return false;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await bridge.close().catch(() => {});
    },
  };
  const counted = new CountingTransport(transport, conn.count);

  bridge.oncalltool = async (p) => toCallToolResult(await api.viewCallTool(view.session_id, view.invocation_id, p.name, p.arguments ?? {}));
  bridge.onmessage = async (p) => {
    const blocks = p.content ?? [];
    const text = blocks.map((b) => (b.type === "text" ? b.text : "")).filter(Boolean).join("\n\n");
    if (!text || blocks.some((b) => b.type !== "text")) {
      report("a chat message that is not text");
      throw new ProtocolError(-32602, "only text messages can be sent from an app view");
    }
    if (!(await ask.message(text, view.tool))) return { isError: true };
    void api.send(view.session_id, text).catch(() => {});
    return {};
  };
  bridge.onopenlink = async (p) => {
    if (!isExternal(p.url ?? "")) {
      report(`a link that is not http(s) or mailto: ${String(p.url).slice(0, 200)}`);
      return { isError: true };
    }
    return (await ask.openLink(p.url, view.tool)) ? {} : { isError: true };
  };
  bridge.onsizechange = (p) => {
    if (p.height !== undefined) o.onsize?.(clampHeight(p.height));
  };
  bridge.onrequestdisplaymode = async () => ({ mode: "inline" });
  bridge.onupdatemodelcontext = unsupported("ui/update-model-context", report);
  bridge.onreadresource = unsupported("resources/read", report);
  bridge.onlistresources = unsupported("resources/list", report);
  bridge.onlistresourcetemplates = unsupported("resources/templates/list", report);
  bridge.onlistprompts = unsupported("prompts/list", report);
  bridge.ondownloadfile = unsupported("ui/download-file", report);
  bridge.oncreatesamplingmessage = unsupported("sampling/createMessage", report);
  bridge.onloggingmessage = () => {};
  bridge.oninitialized = () => {
    const args = o.input && typeof o.input === "object" && !Array.isArray(o.input) ? (o.input as Record<string, unknown>) : {};
    // Plain copies: the card's arguments and result are the chat's state
    // (Svelte proxies), which postMessage cannot clone (DataCloneError),
    // and the view would never get them.
    // A view closed meanwhile fails these sends: said in the console, not
    // in the card (nothing the view did).
    const unsent = (what: string) => (e: unknown) => console.warn(`openworker: the view's ${what} was not sent:`, e);
    void bridge.sendToolInput({ arguments: plain(args) }).catch(unsent("tool input"));
    if (o.result) void bridge.sendToolResult(plain(o.result)).catch(unsent("tool result"));
  };
  await bridge.connect(counted);
  return conn;
}

/**
 * connectView connects the bridge to the view in iframe (its window, by
 * postMessage) and listens for the preamble's reports; the reports count
 * toward the flood bound too. Call it before the frame loads (on mount),
 * so the view's first message finds the bridge.
 */
export async function connectView(iframe: HTMLIFrameElement, view: Pick<ToolView, "session_id" | "invocation_id" | "tool">, api: ViewApi, ask: ViewAsk, o: ViewOptions = {}): Promise<ViewConnection> {
  const win = iframe.contentWindow;
  if (!win) throw new Error(`the app view of ${view.tool} has no window: the frame is not in the page`);
  let conn: ViewConnection | undefined;
  const onrefused = o.onrefused;
  const listener = (ev: MessageEvent) => {
    if (ev.source !== iframe.contentWindow || !conn) return; // the frame's window now (it loads after connecting)
    const d = ev.data as { marker?: unknown; what?: unknown } | null;
    if (!d || typeof d !== "object" || d.marker !== RefusalMarker) return;
    if (!conn.count()) return;
    onrefused?.(String(d.what ?? "something"), false);
    void api.viewRefused(view.session_id, view.invocation_id, String(d.what ?? "something")).catch(() => {});
  };
  window.addEventListener("message", listener);
  conn = await connectBridge(new PostMessageTransport(win, win), view, api, ask, o);
  const close = conn.close;
  conn.close = async () => {
    window.removeEventListener("message", listener);
    await close();
  };
  return conn;
}
