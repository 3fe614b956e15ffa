// The extension install dialog's logic (docs/app.md#opening-an-extension,
// docs/extensions.md#installing): the user_config form's values, their
// checks, the map InstallExtension takes, and the texts of the preview.
// Go checks the values again (manifest.CheckValues); this only says early
// what would be refused.
import type { ExtensionField, ExtensionInstalled, ExtensionPreview } from "./types";

/** A field's value in the form: text (string, number, directory, file),
 * a checkbox (boolean), or a list of texts (multiple). */
export type FieldValue = string | boolean | string[];
export type ExtFormValues = Record<string, FieldValue>;

/** initialValues are the form's values before anything is typed: the
 * defaults (already substituted by Go), else empty; a multiple field
 * starts with one row. */
export function initialValues(p: ExtensionPreview): ExtFormValues {
  const out: ExtFormValues = {};
  for (const f of p.fields ?? []) {
    const d = f.default;
    if (f.type === "boolean") out[f.key] = d === true;
    else if (f.multiple) out[f.key] = Array.isArray(d) && d.length ? d.map(String) : typeof d === "string" ? [d] : [""];
    else out[f.key] = d === null || d === undefined || Array.isArray(d) ? "" : String(d);
  }
  return out;
}

/** fieldLabel is the field's title, or its key. */
export const fieldLabel = (f: ExtensionField) => f.title || f.key;

function isEmpty(v: FieldValue | undefined): boolean {
  if (v === undefined) return true;
  if (Array.isArray(v)) return v.every((s) => s.trim() === "");
  return typeof v === "string" && v.trim() === "";
}

function rangeText(f: ExtensionField): string {
  if (f.min !== null && f.max !== null) return `between ${f.min} and ${f.max}`;
  if (f.min !== null) return `at least ${f.min}`;
  return `at most ${f.max}`;
}

/** fieldError says what is wrong with v for f ("" when it fits): a required
 * field left empty (unless an upgrade keeps the installed value), a number
 * that does not parse or is out of min/max. */
export function fieldError(f: ExtensionField, v: FieldValue | undefined): string {
  if (f.type === "boolean") return "";
  if (isEmpty(v)) return f.required && !f.kept && f.default === null ? `${fieldLabel(f)} is required.` : "";
  if (f.type !== "number") return "";
  const items = Array.isArray(v) ? v.filter((s) => s.trim() !== "") : [String(v)];
  for (const s of items) {
    const n = Number(s.trim());
    if (s.trim() === "" || !Number.isFinite(n)) return `“${s.trim()}” is not a number.`;
    if ((f.min !== null && n < f.min) || (f.max !== null && n > f.max)) return `${fieldLabel(f)} must be ${rangeText(f)}.`;
  }
  return "";
}

/** formErrors maps each field that does not fit to its error. */
export function formErrors(p: ExtensionPreview, values: ExtFormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of p.fields ?? []) {
    const e = fieldError(f, values[f.key]);
    if (e) out[f.key] = e;
  }
  return out;
}

/** toValues is the map InstallExtension takes: a field left empty is left
 * out (its default, or on an upgrade the installed value, applies); a
 * number is a number, a boolean a boolean, a multiple field the list of its
 * non-empty rows. Text is trimmed, except a sensitive value (a token's
 * spaces may be part of it). */
export function toValues(p: ExtensionPreview, values: ExtFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of p.fields ?? []) {
    const v = values[f.key];
    if (f.type === "boolean") {
      out[f.key] = v === true;
      continue;
    }
    if (isEmpty(v)) continue;
    const texts = (Array.isArray(v) ? v : [String(v)]).map((s) => (f.sensitive ? s : s.trim())).filter((s) => s.trim() !== "");
    const typed = f.type === "number" ? texts.map(Number) : texts;
    out[f.key] = f.multiple ? typed : typed[0];
  }
  return out;
}

/** signatureText is the signature line: unsigned, self-signed by SUBJECT,
 * signed by SUBJECT, or invalid with its problem. */
export function signatureText(s: ExtensionPreview["signature"]): string {
  switch (s.status) {
    case "signed":
      return `Signed by ${s.subject}`;
    case "self-signed":
      return `Self-signed by ${s.subject}: nobody vouches for who made it`;
    case "invalid":
      return `Invalid signature: ${s.problem}`;
  }
  return "Unsigned: nobody vouches for who made it";
}

/** runtimeText is what the server needs and whether it was found. */
export function runtimeText(p: ExtensionPreview): { text: string; missing: boolean; url: string } {
  const rt = p.runtime;
  if (!rt.name) return { text: `${p.server_type || "binary"} server: needs nothing else installed`, missing: false, url: "" };
  const need = `${rt.title}${rt.range ? " " + rt.range : ""}`;
  if (rt.found && rt.fits) return { text: `Needs ${need}: found ${rt.found}`, missing: false, url: "" };
  if (rt.found) return { text: `Needs ${need}: found ${rt.found}, which does not match. Get a matching one from`, missing: true, url: rt.url };
  return { text: `Needs ${need}: not found on this computer. Get it from`, missing: true, url: rt.url };
}

/** installedMessage is the notice after an install. */
export function installedMessage(r: ExtensionInstalled): string {
  const what = `${r.display_name || r.name} ${r.version}`;
  const up = r.upgraded ? ` (was ${r.upgraded})` : "";
  return `Installed ${what}${up} as provider ${r.namespace}. Select its tools in a coworker as ${r.namespace}.TOOL; every call asks as usual.`;
}

/** canInstall: nothing blocks and every field fits. */
export function canInstall(p: ExtensionPreview, values: ExtFormValues): boolean {
  return (p.blocking ?? []).length === 0 && Object.keys(formErrors(p, values)).length === 0;
}

/** sandboxText is what the installer says under "Run it in a sandbox":
 * the default preset in words and the note that an extension needing more
 * fails inside it, or, when this system cannot enforce it, why (the box is
 * then disabled and off). */
export function sandboxText(p: ExtensionPreview): { about: string; note: string; disabled: boolean } {
  const s = p.sandbox;
  if (s.unsupported) return { about: `This computer cannot enforce the sandbox: ${s.unsupported}`, note: "", disabled: true };
  return { about: `Inside it, it ${s.words}.`, note: s.note, disabled: false };
}

/** sandboxStart is where the box starts: as installed on an upgrade, off
 * for a new install, and always off when it cannot be enforced. */
export const sandboxStart = (p: ExtensionPreview) => p.sandbox.on && !p.sandbox.unsupported;
