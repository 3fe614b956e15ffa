import { describe, expect, it } from "vitest";
import { extensionNotice, formatSize } from "./extension";

describe("extensionNotice", () => {
  it("names the file and the fix for a bad one", () => {
    const n = extensionNotice({ path: "/d/x.txt", name: "x.txt", size: 0, error: "/d/x.txt is not an extension: OpenWorker opens .mcpb and .dxt files (MCP bundles)" });
    expect(n).toEqual({ level: "error", message: "Cannot open x.txt: /d/x.txt is not an extension: OpenWorker opens .mcpb and .dxt files (MCP bundles)" });
  });
  it("formats sizes", () => {
    expect([0, 1023, 1024, 5 * 1024 * 1024].map(formatSize)).toEqual(["0 B", "1023 B", "1.0 KB", "5.0 MB"]);
  });
});
