// The questions MCP servers ask the person (docs/app.md#questions); re-exported by types.ts.

/** One choice of an enum or multi-select question field (elicit.Option). */
export interface ElicitOption {
  value: string;
  title: string;
}

/** One field of a server's question (elicit.Field, docs/mcp.md#elicitation). */
export interface ElicitField {
  name: string;
  title?: string;
  description?: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum" | "multi";
  required?: boolean;
  format?: string;
  min_length?: number;
  max_length?: number;
  minimum?: number;
  maximum?: number;
  options?: ElicitOption[] | null;
  min_items?: number;
  max_items?: number;
  default?: unknown;
}

/** A server's question during a tool call (elicit.Question). */
export interface ElicitQuestion {
  id: string;
  namespace: string;
  server_name: string;
  session_id: string;
  turn_id: string;
  invocation: string;
  call_id: string;
  tool: string;
  mode: string; // "form" or "url"
  url?: string;
  host?: string;
  message: string;
  fields: ElicitField[] | null;
  deadline: string;
  seq: number;
  problem?: string;
  previous?: Record<string, unknown> | null;
}

/** A question waiting for the person (app.PendingElicitation). */
export interface PendingElicitation {
  question: ElicitQuestion;
  coworker: string;
  coworker_name: string;
  asked: string;
}

/** A question is over (app.ElicitationClosed). */
export interface ElicitationClosed {
  id: string;
  session_id: string;
  action: string;
  reason: string;
}
