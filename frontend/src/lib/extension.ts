// An extension file opened from outside (AppEvent.ExtensionOpened): a good
// one opens the install dialog (ExtensionInstall.svelte, queued in
// app.extensionQueue); one that is not a file to open gets this notice
// (docs/app.md#opening-an-extension).
import type { ExtensionOpened, InstalledExtension, Notice } from "./types";

/** extensionNotice is the notice for an e with an error: the file and the
 * fix. (Without one, e opens the install dialog instead.) */
export function extensionNotice(e: ExtensionOpened): Pick<Notice, "level" | "message"> {
  return { level: "error", message: `Cannot open ${e.name}: ${e.error ?? "it is not an extension file"}` };
}

/** formatSize is n bytes as "512 B", "1.5 KB" or "2.0 MB" (1 KB = 1024 B). */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** sandboxLabel is an installed extension's column in Settings → Extensions. */
export const sandboxLabel = (x: InstalledExtension) => (x.sandboxed ? "Sandboxed" : "Full access");

/** sandboxChangedMessage is the notice after its toggle (docs/extensions.md#sandbox). */
export function sandboxChangedMessage(x: InstalledExtension, on: boolean): string {
  const what = x.display_name || x.name;
  const how = on ? "runs in a sandbox" : "runs with your full access";
  return `${what} now ${how} in new chats; open chats keep what they started with.`;
}
