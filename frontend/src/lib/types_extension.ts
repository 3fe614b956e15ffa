// The extension installer's types (docs/app.md#opening-an-extension); re-exported by types.ts.

/** A user_config field of an extension's install form (Go's ExtensionField,
 * docs/extensions.md#installing). default has ${HOME} etc. applied; kept is
 * true on an upgrade when the installed version has a value, kept when the
 * field is left empty. */
export interface ExtensionField {
  key: string;
  type: "string" | "number" | "boolean" | "directory" | "file";
  title: string;
  description: string;
  required: boolean;
  default: string | number | boolean | string[] | null;
  multiple: boolean;
  sensitive: boolean;
  min: number | null;
  max: number | null;
  kept: boolean;
}

/** What the install dialog shows of an extension file (Go's ExtensionPreview). */
export interface ExtensionPreview {
  path: string;
  display_name: string;
  name: string;
  version: string;
  author: { name: string; email: string; url: string };
  description: string;
  homepage: string;
  tools: { name: string; description: string }[] | null;
  tools_generated: boolean;
  prompts: { name: string; description: string }[] | null;
  prompts_generated: boolean;
  server_type: string;
  /** The command line that starts the server, before substitution. */
  runs: string;
  /** KEY=VALUE words of its environment, before substitution; "" for none. */
  environment: string;
  /** found: the version found ("" when missing); fits: found and in range. */
  runtime: { name: string; title: string; range: string; url: string; found: string; fits: boolean };
  platforms: string[] | null;
  signature: { status: string; subject: string; problem: string };
  privacy_policies: string[] | null;
  namespace: string;
  installed: string;
  blocking: string[] | null;
  warnings: string[] | null;
  files: number;
  bytes: number;
  fields: ExtensionField[] | null;
  /** The "Run it in a sandbox" box (Go's ExtensionSandbox). */
  sandbox: ExtensionSandbox;
  digest: string;
}

/** The installer's sandbox choice: the default preset in words, the note
 * under the box, where the box starts (on an upgrade: as installed), and
 * why this system cannot enforce it ("" when it can; the box is disabled). */
export interface ExtensionSandbox {
  words: string;
  note: string;
  on: boolean;
  unsupported: string;
}

/** What InstallExtension did (Go's ExtensionInstalled). */
export interface ExtensionInstalled {
  name: string;
  display_name: string;
  version: string;
  namespace: string;
  upgraded: string;
}

/** A row of Settings → Extensions (Go's InstalledExtension); error is set for
 * a record that cannot be read. */
export interface InstalledExtension {
  name: string;
  display_name: string;
  version: string;
  namespace: string;
  signature: string;
  signer: string;
  installed_at: string;
  sensitive: string[] | null;
  /** Its server runs in a sandbox; access says it in words (or "runs with your full access"). */
  sandboxed: boolean;
  access: string;
  /** Why this system cannot enforce the default sandbox; "" when it can. */
  sandbox_unsupported: string;
  error: string;
}
