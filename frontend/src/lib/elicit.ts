// The question dialog's form model (docs/app.md#questions,
// docs/mcp.md#elicitation): the values a form starts with, the client-side
// checks that enable Accept, and the content sent. Go checks the answer
// again against the server's schema (AnswerElicitation); these checks
// only spare the person a round trip.
import type { ElicitField, ElicitQuestion, ElicitationClosed, PendingElicitation } from "./types";

/** A field's value as the form holds it: text (and numbers, as typed), a checkbox, or the chosen options. */
export type FieldValue = string | boolean | string[];
export type FormValues = Record<string, FieldValue>;

/** The input type of a string or number field. */
export function inputType(f: ElicitField): string {
  if (f.kind === "number" || f.kind === "integer") return "number";
  switch (f.format) {
    case "email":
      return "email";
    case "uri":
      return "url";
    case "date":
      return "date";
    case "date-time":
      return "datetime-local";
  }
  return "text";
}

/** The label shown: the title, else the name. */
export function fieldLabel(f: ElicitField): string {
  return f.title || f.name;
}

/** Who asks: "namespace (server name)", or the namespace alone. */
export function serverLabel(q: ElicitQuestion): string {
  return q.server_name && q.server_name !== q.namespace ? `${q.namespace} (${q.server_name})` : q.namespace;
}

// A date-time value is RFC 3339 in JSON and "YYYY-MM-DDTHH:MM" in a datetime-local input.
function isoToLocal(v: string): string {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function fromJSON(f: ElicitField, v: unknown): FieldValue | undefined {
  if (v === undefined || v === null) return undefined;
  switch (f.kind) {
    case "boolean":
      return typeof v === "boolean" ? v : undefined;
    case "multi":
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
    case "number":
    case "integer":
      return typeof v === "number" ? String(v) : undefined;
    default:
      if (typeof v !== "string") return undefined;
      return f.format === "date-time" ? isoToLocal(v) : v;
  }
}

/** The values a form starts with: the refused answer (question asked again), else the defaults, else empty. */
export function initialValues(q: ElicitQuestion): FormValues {
  const out: FormValues = {};
  for (const f of q.fields ?? []) {
    const v = fromJSON(f, q.previous?.[f.name]) ?? fromJSON(f, f.default);
    out[f.name] = v ?? (f.kind === "boolean" ? false : f.kind === "multi" ? [] : "");
  }
  return out;
}

const emailRe = /^[^\s@]+@[^\s@]+$/;
const dateRe = /^\d{4}-\d{2}-\d{2}$/;

/** Why a field's value does not fit, or "" when it does. */
export function fieldError(f: ElicitField, v: FieldValue | undefined): string {
  if (f.kind === "boolean") return "";
  if (f.kind === "multi") {
    const n = Array.isArray(v) ? v.length : 0;
    if (f.required && n === 0) return "choose at least one";
    if (n > 0 || f.required) {
      if (f.min_items != null && n < f.min_items) return `choose at least ${f.min_items}`;
      if (f.max_items != null && n > f.max_items) return `choose at most ${f.max_items}`;
    }
    return "";
  }
  const s = typeof v === "string" ? v : "";
  if (s === "") return f.required ? "required" : "";
  switch (f.kind) {
    case "enum":
      return (f.options ?? []).some((o) => o.value === s) ? "" : "choose one of the options";
    case "number":
    case "integer": {
      const n = Number(s.trim());
      if (s.trim() === "" || !Number.isFinite(n)) return "a number, please";
      if (f.kind === "integer" && !Number.isInteger(n)) return "a whole number, please";
      if (f.minimum != null && n < f.minimum) return `at least ${f.minimum}`;
      if (f.maximum != null && n > f.maximum) return `at most ${f.maximum}`;
      return "";
    }
  }
  const len = [...s].length;
  if (f.min_length != null && len < f.min_length) return `at least ${f.min_length} characters`;
  if (f.max_length != null && len > f.max_length) return `at most ${f.max_length} characters`;
  switch (f.format) {
    case "email":
      return emailRe.test(s) ? "" : "an email address, please";
    case "uri":
      try {
        new URL(s);
        return "";
      } catch {
        return "a full address (with https:// or similar), please";
      }
    case "date":
      return dateRe.test(s) ? "" : "a date, please";
    case "date-time":
      return Number.isNaN(new Date(s).getTime()) ? "a date and time, please" : "";
  }
  return "";
}

/** The fields whose values do not fit, by name. */
export function formErrors(q: ElicitQuestion, values: FormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of q.fields ?? []) {
    const e = fieldError(f, values[f.name]);
    if (e) out[f.name] = e;
  }
  return out;
}

/** The content of an accept: typed values, optional fields left empty left out. */
export function toContent(q: ElicitQuestion, values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of q.fields ?? []) {
    const v = values[f.name];
    if (f.kind === "boolean") {
      out[f.name] = v === true;
      continue;
    }
    if (f.kind === "multi") {
      const a = Array.isArray(v) ? v : [];
      if (a.length > 0 || f.required) out[f.name] = a;
      continue;
    }
    const s = typeof v === "string" ? v : "";
    if (s === "") continue;
    if (f.kind === "number" || f.kind === "integer") out[f.name] = Number(s.trim());
    else if (f.format === "date-time") out[f.name] = new Date(s).toISOString();
    else out[f.name] = s;
  }
  return out;
}

/** A URL split around its host, to show the whole URL with the host emphasised. */
export function urlParts(url: string, host: string): { before: string; host: string; after: string } {
  const start = url.indexOf("//");
  const i = start < 0 ? -1 : url.indexOf(host, start + 2);
  if (!host || i < 0) return { before: url, host: "", after: "" };
  return { before: url.slice(0, i), host, after: url.slice(i + host.length) };
}

/** The questions waiting, oldest first; a question asked again replaces its earlier round. */
export function addQuestion(list: PendingElicitation[], p: PendingElicitation): PendingElicitation[] {
  const i = list.findIndex((x) => x.question.id === p.question.id);
  if (i < 0) return [...list, p];
  const next = list.slice();
  next[i] = p;
  return next;
}

export function closeQuestion(list: PendingElicitation[], c: ElicitationClosed): PendingElicitation[] {
  return list.filter((x) => x.question.id !== c.id);
}
