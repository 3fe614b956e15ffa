import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import Markdown from "./Markdown.svelte";
import CopyButton from "./CopyButton.svelte";
import type { Clock } from "../lib/clock";

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => mounted.splice(0).forEach((c) => unmount(c)));

function render(component: typeof Markdown | typeof CopyButton, props: Record<string, unknown>): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(component as typeof Markdown, { target, props: props as { text: string } }));
  flushSync();
  return target;
}

/** A fake clock for the "Copied" state: runs the scheduled callbacks when told. */
function timer() {
  const due: { fn: () => void; ms: number }[] = [];
  const clock: Clock = { now: () => 0, after: (ms, fn) => void due.push({ fn, ms }) };
  return { due, clock, fire: () => due.splice(0).forEach((d) => d.fn()) };
}

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");
// One macrotask: the clipboard promise and the state update after it have run.
const settle = async () => { await new Promise((r) => setTimeout(r, 0)); flushSync(); };

describe("Markdown code blocks", () => {
  it("folds a block over 30 lines with \"show all (N lines)\" and unfolds it", () => {
    const el = render(Markdown, { text: "Here:\n\n```go\n" + lines(40) + "\n```\n\nafter" });
    const code = () => el.querySelector(".codeblock pre.code code")!.textContent!;
    expect(code().split("\n")).toHaveLength(30);
    expect(code().endsWith("line 30")).toBe(true);
    const fold = el.querySelector<HTMLButtonElement>("button.fold")!;
    expect(fold.textContent?.trim()).toBe("show all (40 lines)");
    expect(fold.getAttribute("aria-expanded")).toBe("false");
    expect(el.querySelector(".codeblock")!.classList.contains("folded")).toBe(true);
    fold.click();
    flushSync();
    expect(code()).toBe(lines(40));
    expect(fold.getAttribute("aria-expanded")).toBe("true");
    expect(fold.textContent?.trim()).toBe("show less");
    // The Markdown around the block is still rendered.
    expect(el.querySelector(".markdown")!.textContent).toContain("after");
  });

  it("leaves a block of 30 lines open, with no fold button", () => {
    const el = render(Markdown, { text: "```\n" + lines(30) + "\n```" });
    expect(el.querySelector(".codeblock pre.code code")!.textContent).toBe(lines(30));
    expect(el.querySelector("button.fold")).toBeNull();
  });

  it("copies the whole block, folded or not, and says Copied until the timer fires", async () => {
    const t = timer();
    const el = render(Markdown, { text: "```json\n" + lines(40) + "\n```", clock: t.clock });
    const copy = el.querySelector<HTMLButtonElement>(".codeblock button.copy")!;
    expect(copy.textContent).toBe("Copy");
    expect(copy.getAttribute("aria-label")).toBe("Copy code");
    copy.click();
    await settle();
    expect(writeText).toHaveBeenCalledWith(lines(40));
    expect(copy.textContent).toBe("Copied");
    expect(t.due.map((d) => d.ms)).toEqual([1500]);
    t.fire();
    flushSync();
    expect(copy.textContent).toBe("Copy");
  });

  it("marks text to wrap and code blocks to scroll in their own box", () => {
    const long = "x".repeat(500);
    const el = render(Markdown, { text: `a \`${long}\` b\n\n\`\`\`\n${long}\n\`\`\`` });
    expect(el.querySelector(".markdown.wrap p code")?.textContent).toBe(long);
    expect(el.querySelector(".markdown.wrap .codeblock pre.code")?.textContent).toBe(long);
  });
});

describe("CopyButton", () => {
  it("copies a message's text and reports a refused clipboard", async () => {
    const t = timer();
    const el = render(CopyButton, { text: "**the answer**", what: "message", clock: t.clock });
    const b = el.querySelector("button")!;
    b.click();
    await settle();
    expect(writeText).toHaveBeenCalledWith("**the answer**");
    expect(b.textContent).toBe("Copied");
    expect(b.getAttribute("aria-label")).toBe("Copied");
    t.fire();
    flushSync();
    writeText.mockImplementation(() => Promise.reject(new Error("denied")));
    b.click();
    await settle();
    expect(b.textContent).toBe("Copy failed");
  });
});
