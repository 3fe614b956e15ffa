import { describe, expect, it } from "vitest";
import { foldCode, renderMarkdown, segments } from "./markdown";

describe("renderMarkdown", () => {
  it("renders Markdown", () => {
    const html = renderMarkdown("**bold** and `code`\n\n- a\n- b");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<li>a</li>");
  });

  it("drops scripts and event handlers", () => {
    const html = renderMarkdown('<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a><p onclick="y()">p</p>');
    expect(html).not.toMatch(/script|onerror|onclick|javascript:/i);
  });

  it("blocks remote images but keeps data: images", () => {
    const html = renderMarkdown("![tracker](https://evil.example/p.png) ![ok](data:image/png;base64,iVBORw0KGgo=)");
    expect(html).not.toContain("evil.example");
    expect(html).toContain("[remote image blocked: tracker]");
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
  });

  it("removes iframes, forms, styles and svg", () => {
    const html = renderMarkdown('<iframe src="https://x"></iframe><form action="https://x"><input></form><style>*{}</style><svg><script>1</script></svg><span style="background:url(https://x)">s</span>');
    expect(html).not.toMatch(/iframe|form|input|style|svg|https:\/\/x/i);
    expect(html).toContain("s");
  });

  it("keeps http links without a target, drops other schemes", () => {
    const html = renderMarkdown("[site](https://example.com) [file](file:///etc/passwd)");
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).not.toContain("file:");
  });

  it("splits a message at its top-level code blocks, keeping link references and sanitizing the rest", () => {
    const parts = segments("See [docs][d].\n\n```sh\nls -l\n```\n\n<script>x()</script>\n\n[again][d]\n\n[d]: https://example.com/docs");
    expect(parts.map((p) => p.kind)).toEqual(["html", "code", "html"]);
    expect(parts[1]).toEqual({ kind: "code", lang: "sh", text: "ls -l" });
    const [a, , b] = parts as { html: string }[];
    expect(a.html).toContain('href="https://example.com/docs"');
    expect(b.html).toContain('href="https://example.com/docs"');
    expect(b.html).not.toContain("script");
  });

  it("folds over 30 lines", () => {
    const text = Array.from({ length: 31 }, (_, i) => String(i)).join("\n");
    expect(foldCode(text, false)).toEqual({ shown: text.split("\n").slice(0, 30).join("\n"), lines: 31, folded: true });
    expect(foldCode(text, true)).toEqual({ shown: text, lines: 31, folded: false });
    expect(foldCode("a\nb", false).folded).toBe(false);
  });
});

describe("hidden characters in chat", () => {
  it("marks bidi controls in text, code and attributes; keeps emoji joiners and zero-width characters", () => {
    const html = renderMarkdown("say \u202eevil\u202c [x](https://a.example \"t\u2067i\") 👩\u200d💻 a\u200bb");
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(html).toContain('<span class="uc-hidden" title="right-to-left override (can disguise text)">⟨U+202E⟩</span>evil');
    expect(html).toContain('title="t⟨U+2067⟩i"');
    expect(html).toContain("👩\u200d💻 a\u200bb");
    const parts = segments("x\u202ey\n\n```\nc\u202eode\n```\n");
    expect(parts[0]).toEqual({ kind: "html", html: '<p>x<span class="uc-hidden" title="right-to-left override (can disguise text)">⟨U+202E⟩</span>y</p>\n' });
    expect(parts[1]).toEqual({ kind: "code", lang: "", text: "c\u202eode" }); // CodeBlock marks it
  });
});
