import { describe, expect, it } from "vitest";
import { formatBytes, resultParts, safeImageURL } from "./result";
import { emptyChat, historyState, reduce } from "./chat";
import { HarnessEventType as T } from "./events";
import type { ResultBlock, SessionDetail } from "./types";

const png = "data:image/png;base64,iVBORw0KGgo=";
// The blocks of mcptest.ResultsServer's "blocks" tool, as tool.finished carries them.
const blocks: ResultBlock[] = [
  { type: "text", text: "Here is everything:" },
  { type: "image", mime_type: "image/png", bytes: 75 },
  { type: "audio", mime_type: "audio/wav", bytes: 44 },
  { type: "resource_link", uri: "file:///srv/report.pdf", name: "report.pdf", title: "Q3 <report>", description: "the quarterly report", mime_type: "application/pdf", bytes: 2048 },
  { type: "resource", uri: "file:///srv/notes.txt", mime_type: "text/plain", text: "line 1\n<i>line 2</i>" },
  { type: "resource", uri: "file:///srv/data.bin", mime_type: "application/octet-stream", bytes: 300 },
];

describe("resultParts", () => {
  it("shows every block in order, the image from its data: URL", () => {
    expect(resultParts({ result: "the model's text", content: blocks, images: [{ mime_type: "image/png", url: png }] })).toEqual([
      { kind: "text", text: "Here is everything:" },
      { kind: "image", mime: "image/png", url: png, bytes: 75 },
      { kind: "audio", mime: "audio/wav", bytes: 44 },
      { kind: "link", uri: "file:///srv/report.pdf", name: "report.pdf", title: "Q3 <report>", description: "the quarterly report", mime: "application/pdf", bytes: 2048 },
      { kind: "resource", uri: "file:///srv/notes.txt", mime: "text/plain", text: "line 1\n<i>line 2</i>", bytes: undefined },
      { kind: "resource", uri: "file:///srv/data.bin", mime: "application/octet-stream", text: undefined, bytes: 300 },
    ]);
  });

  it("pretty-prints structured content after the blocks, once", () => {
    const structured = { html: "<b>bold</b>", n: [1, 2] };
    const pretty = JSON.stringify(structured, null, 2);
    // MCP: the text block that repeated the JSON is not among the blocks.
    expect(resultParts({ result: '{"html":"<b>bold</b>","n":[1,2]}', structured })).toEqual([{ kind: "json", text: pretty }]);
    expect(resultParts({ result: "x", structured, content: [{ type: "resource_link", uri: "u", name: "n" }] }).map((p) => p.kind)).toEqual(["link", "json"]);
    // A native tool with its own text and a structured value shows both.
    expect(resultParts({ result: "3 lamps are on", structured })).toEqual([{ kind: "text", text: "3 lamps are on" }, { kind: "json", text: pretty }]);
    // Text alone, JSON text pretty-printed.
    expect(resultParts({ result: '{"a":1}' })).toEqual([{ kind: "text", text: '{\n  "a": 1\n}' }]);
    expect(resultParts({})).toEqual([]);
  });

  it("shows an image without pixels (history) by its size, and no URL but PNG or JPEG data", () => {
    expect(resultParts({ content: [blocks[1]], images: [{ mime_type: "image/png", bytes: 75 }] })).toEqual([{ kind: "image", mime: "image/png", url: undefined, bytes: 75 }]);
    expect(safeImageURL("javascript:alert(1)")).toBeUndefined();
    expect(safeImageURL("data:image/svg+xml;base64,PHN2Zz4=")).toBeUndefined();
    expect(safeImageURL(png)).toBe(png);
    expect(formatBytes(300)).toBe("300 bytes");
    expect(formatBytes(2048)).toBe("2.0 KB");
  });
});

describe("cards carry the result", () => {
  it("from tool.finished", () => {
    let s = reduce(emptyChat(), { type: T.TurnStarted, session_id: "s", turn_id: "t" });
    s = reduce(s, { type: T.ToolProposed, session_id: "s", turn_id: "t", invocation_id: "i" });
    s = reduce(s, { type: T.ToolFinished, session_id: "s", turn_id: "t", invocation_id: "i", status: "succeeded", text: "t",
      content: blocks, structured: { a: 1 }, image_urls: [{ mime_type: "image/png", url: png }] });
    expect(s.items[1]).toMatchObject({ content: blocks, structured: { a: 1 }, images: [{ mime_type: "image/png", url: png }] });
  });

  it("from the journal, for a continued chat", () => {
    const d: SessionDetail = {
      id: "s", coworker: "c", coworker_version: "1", identity: "", provider: "openai", model: "m", approve: "ask", status: "closed", error: "",
      created_at: "", updated_at: "", turns: [{ id: "t1", seq: 1, prompt: "go", status: "completed" }], approvals: null, warnings: null,
      messages: [
        { id: 1, turn_id: "t1", role: "user", content: { role: "user", text: "go" } },
        { id: 2, turn_id: "t1", role: "assistant", content: { role: "assistant", tool_calls: [{ id: "c1", name: "results__blocks", arguments: "{}" }] } },
        { id: 3, turn_id: "t1", role: "tool", content: { role: "tool", tool_call_id: "c1", text: "Here is everything:\n[audio …]" } },
      ],
      invocations: [{ id: "inv1", session_id: "s", turn_id: "t1", call_id: "c1", tool: "results.blocks", alias: "results__blocks", provider: "mcp:results",
        risk: "read_only", arguments: {}, status: "succeeded", effect: "", reconciled: "", duration_ms: 3, created_at: "",
        result: { text: "Here is everything:\n[audio …]", content: blocks, images: [{ mime_type: "image/png", digest: "sha256:x", bytes: 75 }] } }],
    };
    const card = historyState(d).items.find((i) => i.kind === "tool");
    expect(card).toMatchObject({ content: blocks, images: [{ mime_type: "image/png", bytes: 75 }] });
    expect(resultParts(card!.kind === "tool" ? card! : {})[1]).toEqual({ kind: "image", mime: "image/png", url: undefined, bytes: 75 });
  });
});
