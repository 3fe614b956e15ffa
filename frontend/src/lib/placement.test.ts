import { describe, expect, it } from "vitest";
import { isRemote, placementText, runsText } from "./placement";

describe("placement", () => {
  it("says a local call is on this computer", () => {
    expect(placementText("on this computer")).toBe("on this computer");
    expect(isRemote("on this computer")).toBe(false);
  });
  it("keeps a sandboxed provider on this computer, with its sandbox in words", () => {
    const p = "on this computer (sandboxed: reads system files; writes only in the workspace; no network)";
    expect(isRemote(p)).toBe(false);
    expect(placementText(p)).toBe(p);
    expect(isRemote("on this computer.example.com")).toBe(true);
  });
  it("names the remote host", () => {
    expect(placementText("mcp.example.com")).toBe("on mcp.example.com (a remote host)");
    expect(isRemote("mcp.example.com")).toBe(true);
  });
  it("does not guess when the placement is missing (rows from before schema v9)", () => {
    expect(placementText(undefined)).toBe("unknown");
    expect(placementText("")).toBe("unknown");
    expect(isRemote("")).toBe(false);
  });
  it("says a local call runs on this computer, without the sandbox's words (the Access row has them)", () => {
    expect(runsText("on this computer (sandboxed: reads system files; writes nowhere; no network)")).toBe("on this computer");
    expect(runsText("on this computer")).toBe("on this computer");
    expect(runsText("mcp.example.com")).toBe("on mcp.example.com (a remote host)");
    expect(runsText("on this computer.example.com")).toBe("on on this computer.example.com (a remote host)");
    expect(runsText(undefined)).toBe("unknown");
  });
});
