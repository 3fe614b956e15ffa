import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

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
});
