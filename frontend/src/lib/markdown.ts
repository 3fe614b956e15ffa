// Safe Markdown: marked renders, DOMPurify sanitizes. No script, no event
// handler, no iframe or form, and no remote content: images load only from
// data: URLs (a remote image is replaced by its alt text, so a model cannot
// make the app fetch a URL). Links keep http(s)/mailto hrefs and are opened
// by the app in the system browser (see Markdown.svelte).
import { Marked } from "marked";
import DOMPurify from "dompurify";

const marked = new Marked({ gfm: true, breaks: false, async: false });

const purifier = DOMPurify();
purifier.addHook("afterSanitizeAttributes", (node) => {
  const el = node as Element;
  if (el.tagName === "IMG") {
    const src = el.getAttribute("src") ?? "";
    if (!/^data:image\/(png|jpeg|gif|webp);/i.test(src)) {
      const alt = el.getAttribute("alt") || "image";
      const span = el.ownerDocument.createElement("span");
      span.className = "blocked-image";
      span.textContent = `[remote image blocked: ${alt}]`;
      el.replaceWith(span);
    }
  }
  if (el.tagName === "A") {
    const href = el.getAttribute("href") ?? "";
    if (!/^(https?:|mailto:)/i.test(href)) el.removeAttribute("href");
    el.setAttribute("rel", "noopener noreferrer");
    el.removeAttribute("target");
  }
});

const config = {
  FORBID_TAGS: ["style", "iframe", "form", "input", "button", "object", "embed", "link", "meta", "base", "video", "audio", "source", "svg", "math"],
  FORBID_ATTR: ["style", "srcset", "action", "formaction", "background", "poster"],
  ALLOW_DATA_ATTR: false,
};

/** Renders Markdown to sanitized HTML. */
export function renderMarkdown(md: string): string {
  const html = marked.parse(md ?? "") as string;
  return purifier.sanitize(html, config) as unknown as string;
}
