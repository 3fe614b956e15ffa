// Safe Markdown: marked renders, DOMPurify sanitizes. No script, no event
// handler, no iframe or form, and no remote content: images load only from
// data: URLs (a remote image is replaced by its alt text, so a model cannot
// make the app fetch a URL). Links keep http(s)/mailto hrefs and are opened
// by the app in the system browser (see Markdown.svelte).
import { Marked, type Token, type Tokens, type TokensList } from "marked";
import DOMPurify from "dompurify";
import { countHidden, markHiddenInTree } from "./unicode";

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

/**
 * clean sanitizes html and shows each bidi embedding, override or isolate
 * control (U+202A–U+202E, U+2066–U+2069) as a ⟨U+202E⟩ marker, so a message
 * cannot reverse its own text ("evil" shown as "live"). Zero-width
 * characters stay: emoji sequences need U+200D (docs/app.md#hidden-characters).
 */
function clean(html: string): string {
  const safe = purifier.sanitize(html, config) as unknown as string;
  if (!countHidden(safe, "bidi")) return safe;
  const t = document.createElement("template");
  t.innerHTML = safe;
  markHiddenInTree(t.content, "bidi");
  return t.innerHTML;
}

/** Renders Markdown to sanitized HTML. */
export function renderMarkdown(md: string): string {
  return clean(marked.parse(md ?? "") as string);
}

/** A fenced (or indented) code block longer than this many lines is folded. */
export const FoldLines = 30;

/** A piece of a message: sanitized HTML, or a top-level code block (shown by CodeBlock.svelte). */
export type Segment = { kind: "html"; html: string } | { kind: "code"; lang: string; text: string };

/**
 * segments splits a message at its top-level code blocks, so each gets its
 * own box with a copy button and folding (docs/app.md#long-content); the
 * Markdown between them renders as renderMarkdown does, with the message's
 * link references. A code block inside a list or quote stays in the HTML.
 */
export function segments(md: string): Segment[] {
  const tokens = marked.lexer(md ?? "");
  const out: Segment[] = [];
  let run: Token[] = [];
  const flush = () => {
    if (!run.length) return;
    const list = Object.assign(run, { links: tokens.links }) as unknown as TokensList;
    out.push({ kind: "html", html: clean(marked.parser(list) as string) });
    run = [];
  };
  for (const t of tokens) {
    if (t.type === "code") {
      flush();
      const c = t as Tokens.Code;
      out.push({ kind: "code", lang: (c.lang ?? "").split(/\s/)[0], text: c.text });
    } else run.push(t);
  }
  flush();
  return out;
}

/** The lines a folded block shows, and how many it has in all. */
export function foldCode(text: string, open: boolean): { shown: string; lines: number; folded: boolean } {
  const all = text.split("\n");
  const folded = !open && all.length > FoldLines;
  return { shown: folded ? all.slice(0, FoldLines).join("\n") : text, lines: all.length, folded };
}
