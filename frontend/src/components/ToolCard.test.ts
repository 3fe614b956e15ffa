import { afterEach, describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ToolCard from "./ToolCard.svelte";
import type { ToolCardItem } from "../lib/chat";

const png = "data:image/png;base64,iVBORw0KGgo=";

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => mounted.splice(0).forEach((c) => unmount(c)));

/** Mounts a card in jsdom, as the Chat screen does, and returns its element. */
function render(card: ToolCardItem): HTMLElement {
  const target = document.createElement("div");
  mounted.push(mount(ToolCard, { target, props: { card } }));
  flushSync();
  return target;
}

const base: ToolCardItem = { kind: "tool", key: "inv1", callId: "c1", tool: "results.blocks", args: {}, status: "succeeded", progress: [] };

describe("ToolCard", () => {
  it("says an unknown call needs reconciliation in red, a resolved or read-only one in plain muted words", () => {
    const why = "the app stopped while this call was running; it needs reconciliation";
    const open = render({ ...base, status: "unknown", error: why, risk: "non_idempotent_write" });
    expect(open.querySelector(".pill")!.textContent).toBe("unknown — needs reconciliation");
    expect(open.querySelector(".error")!.textContent).toBe(why);
    const done = render({ ...base, status: "unknown", error: why, risk: "non_idempotent_write", reconciled: "not_applied" });
    expect(done.querySelector(".pill")!.textContent).toBe("resolved: not applied");
    expect(done.querySelector(".pill.resolved")).not.toBeNull();
    expect(done.querySelector(".error")).toBeNull();
    expect(done.textContent).not.toContain("needs reconciliation");
    expect(done.textContent).toContain("the app stopped while this call was running");
    const read = render({ ...base, status: "unknown", error: why, risk: "read_only" });
    expect(read.querySelector(".pill")!.textContent).toBe("stopped — it only reads");
    expect(read.textContent).not.toContain("needs reconciliation");
  });

  it("labels a call let through by a saved always-allow as such", () => {
    const el = render({ ...base, decision: "allow_once", decisionSource: "policy:user", decisionReason: "you chose to always allow results.blocks for this coworker" });
    expect(el.textContent).toContain("Approval: allowed — always for this coworker");
    expect(el.textContent).not.toContain("allowed once");
  });
  it("renders each block of the result: text, image, audio, link, embedded resources, structured JSON", () => {
    const el = render({
      ...base, result: "ignored: the blocks are shown", structured: { html: "<b>bold</b>" },
      content: [
        { type: "text", text: "Here is <everything>:" },
        { type: "image", mime_type: "image/png", bytes: 75 },
        { type: "audio", mime_type: "audio/wav", bytes: 44 },
        { type: "resource_link", uri: "file:///srv/report.pdf", name: "report.pdf", title: "Q3 report", mime_type: "application/pdf", bytes: 2048, description: "the quarterly report" },
        { type: "resource", uri: "file:///srv/notes.txt", mime_type: "text/plain", text: "line 1\n<i>line 2</i>" },
        { type: "resource", uri: "file:///srv/data.bin", mime_type: "application/octet-stream", bytes: 300 },
      ],
      images: [{ mime_type: "image/png", url: png }],
    });
    const text = el.textContent ?? "";
    expect(el.querySelector("pre.block.text")?.textContent).toBe("Here is <everything>:");
    expect(el.querySelector("img.image")?.getAttribute("src")).toBe(png);
    expect(text).toContain("Audio (audio/wav, 44 bytes), not played");
    const link = el.querySelector(".block.link")!;
    expect(link.textContent).toContain("Q3 report");
    expect(link.textContent).toContain("(report.pdf)");
    expect(link.querySelector("code")?.textContent).toBe("file:///srv/report.pdf");
    expect(link.textContent).toContain("application/pdf · 2.0 KB");
    expect(link.textContent).toContain("the quarterly report");
    const [notes, blob] = Array.from(el.querySelectorAll(".block.resource"));
    expect(notes.querySelector("code")?.textContent).toBe("file:///srv/notes.txt");
    expect(notes.querySelector("pre")?.textContent).toBe("line 1\n<i>line 2</i>");
    expect(blob.textContent).toContain("300 bytes of binary data, not shown");
    expect(el.querySelector("pre.block.json")?.textContent).toBe('{\n  "html": "<b>bold</b>"\n}');
    // Markup from the tool is text, never HTML.
    expect(el.querySelector("b, i")).toBeNull();
    expect(text).not.toContain("ignored");
  });

  it("shows a plain text result, and an error instead of a result", () => {
    expect(render({ ...base, result: "Echo: hi" }).querySelector("pre.block.text")?.textContent).toBe("Echo: hi");
    const failed = render({ ...base, status: "failed", error: "output_invalid: structuredContent does not match", result: undefined });
    expect(failed.querySelector(".error")?.textContent).toContain("output_invalid");
    expect(failed.querySelector(".result-blocks")).toBeNull();
  });

  it("names an image the journal kept only as a size", () => {
    const el = render({ ...base, content: [{ type: "image", mime_type: "image/jpeg", bytes: 2048 }], images: [{ mime_type: "image/jpeg", bytes: 2048 }] });
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toContain("Image (image/jpeg, 2.0 KB), not kept in the journal");
  });

  it("starts collapsed to one line: status, tool, duration and the result's first line, clipped", () => {
    const long = "y".repeat(300);
    const el = render({ ...base, tool: "device.system_info_get", durationMs: 2400, result: `{"hostname":"${long}","cores":2}` });
    const details = el.querySelector<HTMLDetailsElement>("details.toolcard")!;
    expect(details.open).toBe(false);
    const summary = details.querySelector("summary")!;
    expect(summary.querySelector("code.name")?.textContent).toBe("device.system_info_get");
    expect(summary.querySelector(".pill")?.textContent).toBe("succeeded");
    expect(summary.querySelector(".duration")?.textContent).toBe("2.4 s");
    const line = summary.querySelector(".line")!.textContent!;
    expect(line.startsWith('{"hostname":"yyy')).toBe(true);
    expect(line).toHaveLength(120);
    expect(line.endsWith("…")).toBe(true);
    // The pretty-printed result is inside the closed details, not before the answer.
    expect(details.querySelector(".tool-body pre.block.text")?.textContent).toContain('"cores": 2');
    summary.click();
    flushSync();
    expect(details.open).toBe(true);
  });

  it("summarizes an error, a text block and progress by their first line", () => {
    const line = (c: Partial<ToolCardItem>) => render({ ...base, ...c }).querySelector("summary .line")?.textContent;
    expect(line({ status: "failed", error: "\nunavailable: the server stopped\nstack…" })).toBe("unavailable: the server stopped");
    expect(line({ content: [{ type: "text", text: "  \nfirst\nsecond" }] })).toBe("first");
    expect(line({ content: [{ type: "image", mime_type: "image/png", bytes: 75 }] })).toBe("image (image/png)");
    expect(line({ status: "running", progress: [{ text: "step 1" }, { text: "step 2" }] })).toBe("step 2");
  });

describe("ToolCard progress", () => {
  it("shows the latest progress live on the collapsed running card, with a determinate bar, and lists every step inside", () => {
    const progress = [1, 2, 3].map((n) => ({ text: "", data: { progress: n, total: 5 } }));
    const el = render({ ...base, tool: "everything.trigger-long-running-operation", status: "running", progress });
    const summary = el.querySelector("summary")!;
    expect(el.querySelector<HTMLDetailsElement>("details")!.open).toBe(false);
    expect(summary.querySelector(".line")?.textContent).toBe("3 of 5 (60%)");
    const bar = summary.querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute("aria-valuenow")).toBe("3");
    expect(bar.getAttribute("aria-valuemax")).toBe("5");
    expect(Array.from(el.querySelectorAll(".progress li")).map((li) => li.textContent)).toEqual(["1 of 5 (20%)", "2 of 5 (40%)", "3 of 5 (60%)"]);
  });
  it("has no bar without a total, nor once the call finished", () => {
    const running = render({ ...base, status: "running", progress: [{ text: "", data: { progress: 2 } }] });
    expect(running.querySelector(".line")?.textContent).toBe("step 2");
    expect(running.querySelector('[role="progressbar"]')).toBeNull();
    const done = render({ ...base, status: "succeeded", result: "Long running operation completed.", progress: [{ text: "", data: { progress: 5, total: 5 } }] });
    expect(done.querySelector('[role="progressbar"]')).toBeNull();
    expect(done.querySelector(".line")?.textContent).toBe("Long running operation completed.");
  });
});
});

describe("ToolCard hidden characters", () => {
  it("shows the arguments' invisible and direction-changing characters as markers (docs/app.md#hidden-characters)", () => {
    const root = render({ ...base, args: { path: "invoice_\u202egpj.exe\u202c" } });
    const pre = root.querySelector(".tool-body pre")!;
    expect(pre.textContent).toContain('"path": "invoice_⟨U+202E⟩gpj.exe⟨U+202C⟩"');
    expect(pre.getAttribute("dir")).toBe("ltr");
    expect(root.innerHTML).not.toMatch(/[\u202a-\u202e]/);
  });
});
