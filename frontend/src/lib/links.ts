// External links (docs/app.md#links): a click on a link in a message asks
// "Open this external link?" first (LinkConfirm); Open hands it to the Go
// side (Window.OpenLink: the system's browser). When nothing opens (no
// browser found), the link is copied to the clipboard and a notice says
// both what failed and that it is copied.
import { copyText } from "./copy";

/** Links opened outside the app; others are not links at all (markdown.ts strips them). */
export function isExternal(href: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(href);
}

export interface LinkDeps {
  openLink: (url: string) => Promise<void>;
  notify: (level: "info" | "warning" | "error", message: string) => void;
  clipboard?: Pick<Clipboard, "writeText">;
}

/**
 * openConfirmed opens url (the person confirmed). On failure it copies the
 * link and says so; it never throws. It returns whether the link opened.
 */
export async function openConfirmed(url: string, d: LinkDeps): Promise<boolean> {
  try {
    await d.openLink(url);
    return true;
  } catch (e) {
    const why = (e as Error).message;
    const copied = (await copyText(url, d.clipboard ?? globalThis.navigator?.clipboard)) === "copied";
    d.notify("warning", copied
      ? `Could not open ${url}: ${why}. The link is copied: paste it into a browser.`
      : `Could not open ${url}: ${why}. Copy it from here: ${url}`);
    return false;
  }
}
