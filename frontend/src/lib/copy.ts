// Copy buttons (message and code block): the clipboard write and the brief
// "Copied" state. The clock (lib/clock.ts) and the clipboard are injectable so tests run
// without waiting (docs/app.md#long-content).

/** How long a copy button says "Copied" (or "Copy failed"), in ms. */
export const CopiedMs = 1500;

export type CopyState = "idle" | "copied" | "failed";

/**
 * copyText writes text with navigator.clipboard.writeText and reports
 * "copied", or "failed" when the clipboard is missing or refuses (a
 * webview without clipboard permission); it never throws.
 */
export async function copyText(text: string, clipboard: Pick<Clipboard, "writeText"> | undefined = globalThis.navigator?.clipboard): Promise<CopyState> {
  if (!clipboard) return "failed";
  try {
    await clipboard.writeText(text);
    return "copied";
  } catch {
    return "failed";
  }
}
