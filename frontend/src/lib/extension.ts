// An extension file opened from outside (AppEvent.ExtensionOpened): what the
// window says about it. The installer is issue 15; until then the notice only
// names the file (docs/app.md#opening-an-extension).
import type { ExtensionOpened, Notice } from "./types";

/** extensionNotice is the notice for e: an error naming the file and the fix,
 * or the question the installer will ask, saying it is not built yet. */
export function extensionNotice(e: ExtensionOpened): Pick<Notice, "level" | "message"> {
  if (e.error) return { level: "error", message: `Cannot open ${e.name}: ${e.error}` };
  return {
    level: "warning",
    message: `Install extension ${e.name} (${formatSize(e.size)}, ${e.path})? The extension installer is not built yet (issue 15): nothing was installed.`,
  };
}

/** formatSize is n bytes as "512 B", "1.5 KB" or "2.0 MB" (1 KB = 1024 B). */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
