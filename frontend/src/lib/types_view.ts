// The MCP Apps types (docs/mcp-apps.md); re-exported by types.ts.
import type { ResultBlock } from "./types";

/**
 * The view a call's tool.finished announces (Go: harness.UIResourceRef):
 * the ui:// URI and, once read, the page's size in bytes and digest
 * ("sha256:<hex>"). error is set, digest empty, when the read was refused
 * (over the 2 MB bound, not HTML, a bad CSP, a failed read).
 */
export interface UIResourceRef {
  uri: string;
  digest?: string;
  size?: number;
  error?: string;
}

/** The origins a view declared (Go: the csp of app.ToolView), each validated by the harness. */
export interface ViewCSP {
  connect: string[] | null;
  resource: string[] | null;
  frame: string[] | null;
  base_uri: string[] | null;
}

/** The view of one invocation, for AppView (Go: app.ToolView). */
export interface ToolView {
  session_id: string;
  invocation_id: string;
  /** Qualified name of the tool whose view this is. */
  tool: string;
  uri: string;
  digest: string;
  /** Bytes of html. */
  size: number;
  /** The page, as text. */
  html: string;
  csp: ViewCSP;
  /** Asked for: "camera", "microphone", "geolocation", "clipboardWrite"; never given. */
  permissions: string[] | null;
  prefers_border?: boolean | null;
}

/**
 * What a view's tool call became (Go: app.ViewToolResult): status
 * succeeded | failed | unknown | refused; code the refusal or error code
 * (not_selected, not_for_app, denied, invalid_arguments, over_budget, …);
 * invocation_id "" when refused before one was journaled.
 */
export interface ViewToolResult {
  status: string;
  code?: string;
  error?: string;
  invocation_id?: string;
  content: ResultBlock[] | null;
  structured?: unknown;
}
